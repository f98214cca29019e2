package ginrummy;

import java.util.ArrayList;
import java.util.Arrays;

/** Drives the bridge through two hands' callbacks and prints what it answered. */
public class BridgeCheck {
    private static Card[] cards(String text) {
        String[] words = text.split(" ");
        Card[] out = new Card[words.length];
        for (int i = 0; i < words.length; i++) {
            out[i] = Card.get(words[i]);
        }
        return out;
    }

    private static ArrayList<Card> list(String text) {
        return new ArrayList<>(Arrays.asList(cards(text)));
    }

    public static void main(String[] args) {
        GinRummyBridgePlayer me = new GinRummyBridgePlayer(args[0]);
        // Hand 1: it starts, takes 9D, throws KC and knocks with QS (10).
        me.startGame(0, 0, cards("AS 2S 3S 4H 5H 6H 7D 8D KC QS"));
        me.reportScores(new int[] {0, 0});
        System.out.println("take 9D: " + me.willDrawFaceUpCard(Card.get("9D")));
        me.reportDraw(0, Card.get("9D"));
        Card discard = me.getDiscard();
        System.out.println("discard: " + discard);
        me.reportDiscard(0, discard);
        System.out.println("knock: " + me.getFinalMelds());
        me.reportScores(new int[] {12, 0});
        // Hand 2: he starts and takes the face-up JH, throws 2C; it passes 2C and draws QH.
        me.startGame(1, 0, cards("7S 8S 9H 9D 9C KC QD 2D 3H 4D"));
        me.reportDraw(0, Card.get("JH"));
        me.reportDiscard(0, Card.get("2C"));
        System.out.println("take 2C: " + me.willDrawFaceUpCard(Card.get("2C")));
        try {
            me.reportDraw(1, Card.get("9H"));
            System.out.println("no error");
        } catch (IllegalStateException e) {
            System.out.println("refused: " + e.getMessage());
        }
        me.reportDraw(1, Card.get("QH"));
        discard = me.getDiscard();
        System.out.println("discard: " + discard);
        me.reportDiscard(1, discard);
        System.out.println("knock: " + me.getFinalMelds());
        // He knocks; it declares its melds, keeping out what it can lay off.
        me.reportDraw(0, null);
        me.reportDiscard(0, Card.get("AH"));
        ArrayList<ArrayList<Card>> knock = new ArrayList<>();
        knock.add(list("4S 5S 6S"));
        knock.add(list("JH JS JC"));
        me.reportFinalMelds(0, knock);
        System.out.println("defence: " + me.getFinalMelds());
        me.reportLayoff(1, Card.get("7S"), knock.get(0));
        me.reportFinalHand(0, list("4S 5S 6S JH JS JC 2H 3C AD AC"));
        me.reportScores(new int[] {12, 0});
        // Hand 3: he knocks at once; it holds no meld at all, and declares none.
        me.startGame(1, 0, cards("2C 4D 6H 8S TC QD KH 3S 5H 7C"));
        me.reportDraw(0, null);
        me.reportDiscard(0, Card.get("AH"));
        ArrayList<ArrayList<Card>> quick = new ArrayList<>();
        quick.add(list("9D TD JD"));
        quick.add(list("QS QC QH"));
        me.reportFinalMelds(0, quick);
        System.out.println("no melds: " + me.getFinalMelds());
        me.close();
    }
}
