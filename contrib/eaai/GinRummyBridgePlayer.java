package ginrummy;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A player for the EAAI Gin Rummy framework that is one of ginrummy's computer players.
 *
 * <p>It is in the framework's package, {@code ginrummy}: copy it next to the framework's sources
 * ({@code src/ginrummy/}) and it compiles with them as it is.
 *
 * <p>Every callback is forwarded to a {@code ginrummy bot AGENT} process as one JSON line,
 * {@code {"call": "getDiscard", "args": []}}, and its one-line answer, {@code {"result": "TD"}},
 * is turned back into the framework's types. Copy this file next to the framework's sources and
 * use {@code new GinRummyBridgePlayer()} (the expert) or {@code new GinRummyBridgePlayer("intermediate")}
 * wherever a {@code GinRummyPlayer} goes. The command that starts the bot is {@code ginrummy bot}
 * unless the environment variable {@code GINRUMMY_BOT} names another (for example
 * {@code /path/to/.venv/bin/ginrummy bot}); the agent's name is added to it.
 *
 * <p>An answer {@code {"error": ...}} (a callback that does not fit the hand as the bot saw it)
 * is thrown as an {@link IllegalStateException}.
 */
public class GinRummyBridgePlayer implements GinRummyPlayer {
    private static final Pattern INNER_LIST = Pattern.compile("\\[([^\\[\\]]*)\\]");

    private final Process process;
    private final BufferedWriter toBot;
    private final BufferedReader fromBot;

    public GinRummyBridgePlayer() {
        this("expert");
    }

    public GinRummyBridgePlayer(String agent) {
        this(agent, System.getenv().getOrDefault("GINRUMMY_BOT", "ginrummy bot"));
    }

    public GinRummyBridgePlayer(String agent, String command) {
        List<String> words = new ArrayList<>(Arrays.asList(command.trim().split("\\s+")));
        words.add(agent);
        ProcessBuilder builder = new ProcessBuilder(words);
        builder.redirectError(ProcessBuilder.Redirect.INHERIT);
        try {
            process = builder.start();
        } catch (IOException e) {
            throw new IllegalStateException("cannot start " + words + ": " + e.getMessage(), e);
        }
        toBot = new BufferedWriter(new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8));
        fromBot = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
    }

    /** Ends the bot process (it also ends by itself when this program exits). */
    public void close() {
        try {
            toBot.close();
        } catch (IOException e) {
            // already gone
        }
        process.destroy();
    }

    // -- the callbacks --------------------------------------------------------------------------

    @Override
    public void startGame(int playerNum, int startingPlayerNum, Card[] cards) {
        call("startGame", playerNum + ", " + startingPlayerNum + ", " + cardList(Arrays.asList(cards)));
    }

    @Override
    public boolean willDrawFaceUpCard(Card card) {
        return "true".equals(call("willDrawFaceUpCard", card(card)));
    }

    @Override
    public void reportDraw(int playerNum, Card drawnCard) {
        call("reportDraw", playerNum + ", " + (drawnCard == null ? "null" : card(drawnCard)));
    }

    @Override
    public Card getDiscard() {
        return toCard(call("getDiscard", ""));
    }

    @Override
    public void reportDiscard(int playerNum, Card discardedCard) {
        call("reportDiscard", playerNum + ", " + card(discardedCard));
    }

    @Override
    public ArrayList<ArrayList<Card>> getFinalMelds() {
        String result = call("getFinalMelds", "");
        if ("null".equals(result)) {
            return null;
        }
        ArrayList<ArrayList<Card>> melds = new ArrayList<>();
        Matcher m = INNER_LIST.matcher(result);
        while (m.find()) {
            ArrayList<Card> meld = new ArrayList<>();
            for (String text : m.group(1).split(",")) {
                if (!text.isBlank()) {
                    meld.add(toCard(text));
                }
            }
            if (!meld.isEmpty()) { // "[]", no melds, is not one empty meld (which forfeits)
                melds.add(meld);
            }
        }
        return melds;
    }

    @Override
    public void reportFinalMelds(int playerNum, ArrayList<ArrayList<Card>> melds) {
        StringBuilder list = new StringBuilder("[");
        for (ArrayList<Card> meld : melds) {
            if (list.length() > 1) {
                list.append(", ");
            }
            list.append(cardList(meld));
        }
        call("reportFinalMelds", playerNum + ", " + list.append("]"));
    }

    @Override
    public void reportScores(int[] scores) {
        call("reportScores", "[" + scores[0] + ", " + scores[1] + "]");
    }

    @Override
    public void reportLayoff(int playerNum, Card layoffCard, ArrayList<Card> opponentMeld) {
        call("reportLayoff", playerNum + ", " + card(layoffCard) + ", " + cardList(opponentMeld));
    }

    @Override
    public void reportFinalHand(int playerNum, ArrayList<Card> hand) {
        call("reportFinalHand", playerNum + ", " + cardList(hand));
    }

    // -- the JSON lines -------------------------------------------------------------------------

    /** Sends one call and returns the JSON text of its result. */
    private String call(String name, String args) {
        String reply;
        try {
            toBot.write("{\"call\": \"" + name + "\", \"args\": [" + args + "]}\n");
            toBot.flush();
            reply = fromBot.readLine();
        } catch (IOException e) {
            throw new IllegalStateException("the ginrummy bot has gone: " + e.getMessage(), e);
        }
        if (reply == null) {
            throw new IllegalStateException("the ginrummy bot has gone (no answer to " + name + ")");
        }
        String key = "{\"result\": ";
        if (!reply.startsWith(key) || !reply.endsWith("}")) {
            throw new IllegalStateException("the ginrummy bot refused " + name + ": " + reply);
        }
        return reply.substring(key.length(), reply.length() - 1).trim();
    }

    private static String card(Card card) {
        return "\"" + card + "\"";
    }

    private static String cardList(List<Card> cards) {
        StringBuilder out = new StringBuilder("[");
        for (Card c : cards) {
            if (out.length() > 1) {
                out.append(", ");
            }
            out.append(card(c));
        }
        return out.append("]").toString();
    }

    private static Card toCard(String json) {
        String text = json.trim().replace("\"", "");
        Card card = Card.strCardMap.get(text);
        if (card == null) {
            throw new IllegalStateException("the ginrummy bot named no card: " + json);
        }
        return card;
    }
}
