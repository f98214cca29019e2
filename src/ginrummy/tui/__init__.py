"""``ginrummy play``: Gin Rummy in the terminal.

One screen for two kinds of table, driven by the web app's protocol messages
(:mod:`.session`): a game against the computer in this process, stored where the web app
stores its games (:mod:`.local`), or a seat at a table of a running ``ginrummy serve``
(:mod:`.remote`). :mod:`.app` draws it with Textual; :mod:`.plain` says it line by line. The
words (:mod:`.words`) are those of the web page. Importing this package imports neither
Textual nor the network.
"""
