"""The game page: every configured game as a read-only web page served by the bot itself — the
period and its deadline, who has sent orders (never what), the state as a picture, the standings,
every report as posted, the keys — and the game's history as wiki markup (`threadgm export`).

| module | holds |
|---|---|
| `history.py` | a game's setup and thread from the configuration and the store; its periods folded again |
| `view.py` | what the page shows of a game, and only what the thread may see |
| `app.py` | the WSGI application (GET and HEAD only) and its templates |
| `server.py` | `GamePage`: the application under waitress, beside the bot |
| `export.py` | a game's whole history in atwiki, PukiWiki or Markdown |
| `cli.py` | `threadgm picture` and `threadgm export` |
"""
