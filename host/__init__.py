"""The lantable peer node on trio: listener, lobby, tables, journal, discovery."""
