package ginrummy;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

/**
 * The framework's game loop, as ginrummy.agents.eaai.play_eaai_game describes it (written from
 * the framework's rules, not copied): whole games to 100 between two players, which are kept
 * from game to game as the framework keeps them; a bad answer forfeits the game. Prints one line
 * a game: "game N: winner W, scores A-B, hands H, forfeit REASON|none".
 */
public class GameLoop {
    static final int GOAL = 100;
    static final int BONUS = 25;
    static final int LIMIT = 10;

    static int value(Card c) {
        return Math.min(10, c.rank + 1);
    }

    static boolean isMeld(List<Card> cards) {
        if (cards.size() < 3) {
            return false;
        }
        boolean sameRank = true;
        boolean sameSuit = true;
        for (Card c : cards) {
            sameRank &= c.rank == cards.get(0).rank;
            sameSuit &= c.suit == cards.get(0).suit;
        }
        if (sameRank) {
            return cards.size() <= 4;
        }
        if (!sameSuit) {
            return false;
        }
        List<Integer> ranks = new ArrayList<>();
        for (Card c : cards) {
            ranks.add(c.rank);
        }
        Collections.sort(ranks);
        for (int i = 1; i < ranks.size(); i++) {
            if (ranks.get(i) != ranks.get(i - 1) + 1) {
                return false;
            }
        }
        return true;
    }

    /** The cards the melds cover, or null when one is no meld, not held, or shared. */
    static List<Card> melded(List<Card> hand, List<ArrayList<Card>> melds) {
        List<Card> used = new ArrayList<>();
        for (ArrayList<Card> meld : melds) {
            if (!isMeld(meld)) {
                return null;
            }
            for (Card c : meld) {
                if (!hand.contains(c) || used.contains(c)) {
                    return null;
                }
                used.add(c);
            }
        }
        return used;
    }

    static int deadwood(List<Card> hand, List<Card> used) {
        int total = 0;
        for (Card c : hand) {
            if (!used.contains(c)) {
                total += value(c);
            }
        }
        return total;
    }

    static String play(GinRummyPlayer[] players, Random rng) {
        int[] scores = {0, 0};
        int starting = rng.nextInt(2);
        int hands = 0;
        while (Math.max(scores[0], scores[1]) < GOAL) {
            hands++;
            List<Card> deck = new ArrayList<>();
            Collections.addAll(deck, Card.allCards);
            Collections.shuffle(deck, rng);
            List<List<Card>> held = new ArrayList<>();
            for (int p = 0; p < 2; p++) {
                held.add(new ArrayList<>(deck.subList(10 * p, 10 * p + 10)));
            }
            deck.subList(0, 20).clear();
            for (int p = 0; p < 2; p++) {
                players[p].startGame(p, starting, held.get(p).toArray(new Card[0]));
            }
            List<Card> pile = new ArrayList<>();
            pile.add(deck.remove(deck.size() - 1));
            Card first = pile.get(0);
            int current = starting;
            int turns = 0;
            ArrayList<ArrayList<Card>> knock = null;
            while (deck.size() > 2) {
                Card faceUp = pile.get(pile.size() - 1);
                boolean take = false;
                if (!(turns == 3 && faceUp == first)) {
                    take = players[current].willDrawFaceUpCard(faceUp);
                }
                if (take || turns >= 2 || faceUp != first) {
                    Card drawn = take ? pile.remove(pile.size() - 1) : deck.remove(deck.size() - 1);
                    for (int p = 0; p < 2; p++) {
                        players[p].reportDraw(current, p == current || take ? drawn : null);
                    }
                    held.get(current).add(drawn);
                    Card card = players[current].getDiscard();
                    if (!held.get(current).contains(card) || card == faceUp && take) {
                        return result(1 - current, scores, hands, "discard");
                    }
                    held.get(current).remove(card);
                    for (int p = 0; p < 2; p++) {
                        players[p].reportDiscard(current, card);
                    }
                    pile.add(card);
                    knock = players[current].getFinalMelds();
                    if (knock != null) {
                        break;
                    }
                }
                turns++;
                current = 1 - current;
            }
            if (knock == null) {
                reportEnd(players, held, scores);
                continue;
            }
            int other = 1 - current;
            List<Card> used = melded(held.get(current), knock);
            int dw = used == null ? LIMIT + 1 : deadwood(held.get(current), used);
            if (dw > LIMIT) {
                return result(other, scores, hands, "knock");
            }
            for (int p = 0; p < 2; p++) {
                players[p].reportFinalMelds(current, knock);
            }
            ArrayList<ArrayList<Card>> defence = players[other].getFinalMelds();
            if (defence == null) {
                defence = new ArrayList<>();
            }
            for (int p = 0; p < 2; p++) {
                players[p].reportFinalMelds(other, defence);
            }
            List<Card> hisUsed = melded(held.get(other), defence);
            if (hisUsed == null) {
                return result(current, scores, hands, "melds");
            }
            List<Card> loose = new ArrayList<>();
            for (Card c : held.get(other)) {
                if (!hisUsed.contains(c)) {
                    loose.add(c);
                }
            }
            if (dw > 0) {
                layOff(players, other, loose, knock);
            }
            int hisDw = deadwood(loose, new ArrayList<>());
            if (dw == 0) {
                scores[current] += BONUS + hisDw;
            } else if (dw < hisDw) {
                scores[current] += hisDw - dw;
            } else {
                scores[other] += BONUS + dw - hisDw;
            }
            starting = 1 - starting;
            reportEnd(players, held, scores);
        }
        return result(scores[0] >= GOAL ? 0 : 1, scores, hands, "none");
    }

    /** The framework's layoffs: again and again, the first loose card that extends a meld. */
    static void layOff(GinRummyPlayer[] players, int who, List<Card> loose, List<ArrayList<Card>> melds) {
        boolean again = true;
        while (again) {
            again = false;
            for (Card c : new ArrayList<>(loose)) {
                for (ArrayList<Card> meld : melds) {
                    ArrayList<Card> longer = new ArrayList<>(meld);
                    longer.add(c);
                    if (isMeld(longer)) {
                        for (int p = 0; p < 2; p++) {
                            players[p].reportLayoff(who, c, new ArrayList<>(meld));
                        }
                        meld.add(c);
                        loose.remove(c);
                        again = true;
                        break;
                    }
                }
                if (again) {
                    break;
                }
            }
        }
    }

    /** The end of a hand as the framework reports it: both final hands, then the scores. */
    static void reportEnd(GinRummyPlayer[] players, List<List<Card>> held, int[] scores) {
        for (int p = 0; p < 2; p++) {
            for (int q = 0; q < 2; q++) {
                players[p].reportFinalHand(q, new ArrayList<>(held.get(q)));
            }
        }
        for (int p = 0; p < 2; p++) {
            players[p].reportScores(scores.clone());
        }
    }

    static String result(int winner, int[] scores, int hands, String forfeit) {
        return "winner " + winner + ", scores " + scores[0] + "-" + scores[1] + ", hands " + hands
                + ", forfeit " + forfeit;
    }

    public static void main(String[] args) {
        GinRummyPlayer[] players = {new GinRummyBridgePlayer(args[0]), new GinRummyBridgePlayer(args[1])};
        Random rng = new Random(Long.parseLong(args[2]));
        int games = Integer.parseInt(args[3]);
        for (int g = 1; g <= games; g++) {
            System.out.println("game " + g + ": " + play(players, rng));
        }
        for (GinRummyPlayer p : players) {
            ((GinRummyBridgePlayer) p).close();
        }
    }
}
