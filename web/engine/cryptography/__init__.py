"""A stand-in for the ``cryptography`` package in the card engine (Pyodide), which has
no such C extension: ``lantable.protocol.fairplay`` imports it at the top, but the page
signs with its own key in JavaScript (web/static/decks.js), so nothing here runs."""
