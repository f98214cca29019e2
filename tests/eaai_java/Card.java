package ginrummy;

import java.util.HashMap;

/** A stand-in for the framework's Card, with the parts the bridge uses. */
public class Card {
    public static String[] rankNames = {"A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K"};
    public static String[] suitNames = {"C", "H", "S", "D"};
    public static HashMap<String, Card> strCardMap = new HashMap<>();
    public static Card[] allCards = new Card[52];

    static {
        for (int suit = 0; suit < 4; suit++) {
            for (int rank = 0; rank < 13; rank++) {
                Card c = new Card(rank, suit);
                allCards[suit * 13 + rank] = c;
                strCardMap.put(c.toString(), c);
            }
        }
    }

    public final int rank;
    public final int suit;

    private Card(int rank, int suit) {
        this.rank = rank;
        this.suit = suit;
    }

    public static Card get(String text) {
        return strCardMap.get(text);
    }

    @Override
    public String toString() {
        return rankNames[rank] + suitNames[suit];
    }
}
