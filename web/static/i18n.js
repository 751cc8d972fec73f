// lantable in the browser: the page's own words in English and Italian, and the games'
// translations of their labels and sentences.
//
// The page writes every sentence in English, `T("Waiting for {who}.", {who})`; the
// English text is the key, and IT holds its Italian. A word missing here stays
// English (tests/web/test_i18n.py checks that every key of app.js and forms.js has
// its Italian). The language is the browser's until the person picks one in the top
// bar (kept in localStorage "lantable.lang").
//
// A game adds translations of its own words (labels, sentences, its text board, its
// title) in game_info's `translations` (docs/plugins.md, "Words in other languages"):
// {"it": {"title": "...", "phrases": [["^pass$", "passo"], ["^(.+) bids (\\d+)", "$1 offre $2"]]}},
// or, from a board.js, lantable.addTranslations(gameId, "it", phrases). Each phrase is
// a JavaScript regular expression and its replacement, applied in order to the text.
"use strict";

(function () {
  const LANGS = ["en", "it"];
  const IT = {
    // the top bar and the connection
    "you are": "sei",
    "connecting…": "connessione…",
    "reconnecting…": "riconnessione…",
    "reconnecting… (try {n})": "riconnessione… (tentativo {n})",
    "online": "in linea",
    "connection lost": "connessione persa",
    "at {host}": "da {host}",
    "not connected": "non connesso",
    "Not connected yet; try again in a moment.": "Non ancora connesso; riprova tra un momento.",
    "The host is stopping; this page reconnects when it is back.":
      "L'host si sta fermando; questa pagina si ricollega quando torna.",
    "Refused ({code}): {why}": "Rifiutato ({code}): {why}",
    "This seat was taken over by another device or tab; you are watching now. Reload to take it back.":
      "Questo posto è stato preso da un altro dispositivo o scheda; ora stai guardando. Ricarica la pagina per riprenderlo.",
    "Your name is used at the next table you sit at.": "Il tuo nome vale dal prossimo tavolo a cui ti siedi.",
    "Or type it in": "Oppure scrivilo",
    "Or pick from the full list": "Oppure scegli dall'elenco completo",
    // the lobby
    "Tables at {host}": "Tavoli da {host}",
    "Tables at this peer": "Tavoli di questo computer",
    "No tables yet. Open one below.": "Ancora nessun tavolo. Aprine uno qui sotto.",
    "Other peers on this network": "Altri computer su questa rete",
    "1 open table": "1 tavolo aperto",
    "{n} open tables": "{n} tavoli aperti",
    "no open table": "nessun tavolo aperto",
    "Go there": "Vai",
    "no web app": "senza app web",
    "nobody yet": "ancora nessuno",
    "Back to my seat": "Torna al mio posto",
    "Sit down": "Siediti",
    "Watch": "Guarda",
    "1 seat free": "1 posto libero",
    "{n} seats free": "{n} posti liberi",
    "waiting": "in attesa",
    "playing": "in gioco",
    "finished": "finita",
    "faulted": "in errore",
    "Loading the games…": "Caricamento dei giochi…",
    "Seats": "Posti",
    "Options ({n}; the defaults are the rulebook's)": "Opzioni ({n}; i valori predefiniti sono quelli del regolamento)",
    "Fair play": "Gioco leale",
    "fair play": "gioco leale",
    "Every seat helps roll the dice and shuffle, so no one, the host included, can choose or foresee them; the table's journal can be checked afterwards.":
      "Ogni posto contribuisce a tirare i dadi e mescolare, così nessuno, host compreso, può sceglierli o prevederli; il giornale del tavolo si può verificare dopo.",
    "Open a table": "Apri un tavolo",
    "Game": "Gioco",
    "Open and sit down": "Apri e siediti",
    "Cannot open the table: {why}": "Impossibile aprire il tavolo: {why}",
    "Cannot open table {id}: {why}": "Impossibile aprire il tavolo {id}: {why}",
    // the table
    "seat {n}": "posto {n}",
    "← Tables": "← Tavoli",
    "Table {id}": "Tavolo {id}",
    "Leave": "Lascia",
    "Loading the table…": "Caricamento del tavolo…",
    "Waiting for the host…": "In attesa dell'host…",
    "Connection lost: reconnecting. Your seat is kept; the board shows the last thing the host said.":
      "Connessione persa: riconnessione in corso. Il tuo posto resta tuo; il tabellone mostra l'ultima cosa detta dall'host.",
    "(you)": "(tu)",
    "(free)": "(libero)",
    "(away)": "(assente)",
    "Others on this network open": "Gli altri su questa rete aprono",
    "and tap “Sit down” at this table. The game starts when every seat is taken.":
      "e toccano “Siediti” a questo tavolo. La partita inizia quando tutti i posti sono occupati.",
    "Options:": "Opzioni:",
    "Waiting for players.": "In attesa dei giocatori.",
    "Joined at move {seq}.": "Entrato alla mossa {seq}.",
    "The game starts.": "La partita comincia.",
    "Waiting for 1 more player.": "Manca ancora 1 giocatore.",
    "Waiting for {n} more players.": "Mancano ancora {n} giocatori.",
    "Game over.": "Partita finita.",
    "The game hit a bug; the host is restoring the table.": "Il gioco ha incontrato un errore; l'host sta ripristinando il tavolo.",
    "Your move.": "Tocca a te.",
    "Waiting for {who}.": "Si aspetta {who}.",
    "no table is on screen": "nessun tavolo sullo schermo",
    "The game's board could not be drawn for this move; the choices below still work.":
      "Il tabellone del gioco non si è potuto disegnare per questa mossa; le scelte qui sotto funzionano comunque.",
    "Loading the board…": "Caricamento del tabellone…",
    "This game sends no board to the browser; open debug below to see its data.":
      "Questo gioco non manda un tabellone al browser; apri debug qui sotto per vederne i dati.",
    "debug": "debug",
    "hide debug": "nascondi debug",
    // choices and forms
    "Your choices": "Le tue scelte",
    "(opens a form)": "(apre un modulo)",
    "Filter the {n} choices…": "Filtra le {n} scelte…",
    "Filter the choices": "Filtra le scelte",
    "No choice matches the filter.": "Nessuna scelta corrisponde al filtro.",
    "Take forced choices for me": "Fai tu le scelte obbligate",
    "Every move then waits the same short time, so no one can tell a forced one from a chosen one.":
      "Ogni mossa aspetta allora lo stesso breve tempo, così nessuno distingue una mossa obbligata da una scelta.",
    "This browser does not hold this seat's fair-play secret (the seat was taken in another browser, or this one's storage was cleared), so it cannot sign moves here. Play this seat from the browser that sat down.":
      "Questo browser non ha il segreto di gioco leale di questo posto (il posto è stato preso in un altro browser, o la memoria di questo è stata cancellata), quindi qui non può firmare le mosse. Gioca questo posto dal browser che si è seduto.",
    "Send": "Invia",
    "Cancel": "Annulla",
    "Add a step": "Aggiungi un tratto",
    "Remove": "Togli",
    "Remove step {n}": "Togli il tratto {n}",
    "Choose a value for {name}.": "Scegli un valore per {name}.",
    "This page cannot fill a parameter of kind {kind}.": "Questa pagina non sa compilare un parametro di tipo {kind}.",
    "from {lo} to {hi}": "da {lo} a {hi}",
    "{name} must be between {lo} and {hi}.": "{name} deve essere tra {lo} e {hi}.",
    "{name} must be an angle from 0 to 359.9 degrees.": "{name} deve essere un angolo da 0 a 359,9 gradi.",
    "{name} needs from {lo} to {hi} steps.": "{name} richiede da {lo} a {hi} tratti.",
    "0° points east (right), 90° north (up), counter-clockwise.":
      "0° punta a est (destra), 90° a nord (su), in senso antiorario.",
    "Dial: tap to aim": "Quadrante: tocca per puntare",
    "E": "E",
    "N": "N",
    "W": "O",
    "S": "S",
    "If you send this": "Se invii questo",
    "The game says: {why}": "Il gioco dice: {why}",
    "Refused: {why}": "Rifiutato: {why}",
    "none": "nessuno",
    "last": "ultimo",
    // news, scores, fair play
    "What happened": "Cosa è successo",
    "Results of the round": "Risultati del turno",
    "Continue": "Continua",
    "No one won.": "Nessuno ha vinto.",
    "You win!": "Hai vinto!",
    "{who} wins.": "Vince {who}.",
    "{who} share the win.": "{who} vincono a pari merito.",
    " and ": " e ",
    "Final scores": "Punteggi finali",
    "Place": "Posizione",
    "Player": "Giocatore",
    "Score": "Punti",
    "(forfeit)": "(a tavolino)",
    "How the scores were made": "Come si sono formati i punteggi",
    "Fair play: no random event was settled at this table.": "Gioco leale: a questo tavolo non si è deciso nessun evento casuale.",
    "Fair play: every die and shuffle comes from all the seats' secrets; this page checks each random event when the host sends it.":
      "Gioco leale: ogni dado e ogni mescolata vengono dai segreti di tutti i posti; questa pagina verifica ogni evento casuale quando l'host lo manda.",
    "Fair play: this browser cannot sign, so it can watch this table but not sit.":
      "Gioco leale: questo browser non sa firmare, quindi può guardare questo tavolo ma non sedersi.",
    "Fair play: the {what} was refused: {why}": "Gioco leale: il {what} è stato rifiutato: {why}",
    "Hidden cards: every seat deals its own cards; the host never sees a hand.":
      "Carte nascoste: ogni posto distribuisce le proprie carte; l'host non vede mai una mano.",
    "Hidden cards: the {what} was refused: {why}": "Carte nascoste: il {what} è stato rifiutato: {why}",
    "Hidden cards: this page cannot do its part of the deal ({why}); the table will name this seat.":
      "Carte nascoste: questa pagina non può fare la sua parte della distribuzione ({why}); il tavolo nominerà questo posto.",
    "Hidden cards: this page deals your cards itself, with the card engine (the game's own Python, running in this browser); the host never receives your hand. Its code comes from the host that served this page, as for fair play: play from your own laptop (lantable play) if you do not trust that host. Keep this page open to the end: your deck secrets live only in it.":
      "Carte nascoste: questa pagina distribuisce da sé le tue carte, con il motore delle carte (il Python del gioco stesso, eseguito in questo browser); l'host non riceve mai la tua mano. Il suo codice viene dall'host che ha servito questa pagina, come per il gioco leale: gioca dal tuo portatile (lantable play) se non ti fidi di quell'host. Tieni aperta questa pagina fino alla fine: i segreti del tuo mazzo vivono solo qui.",
    "Hidden cards: this table deals cards no one else sees, the host included. This peer serves no card engine, so a browser can only watch here.":
      "Carte nascoste: questo tavolo distribuisce carte che nessun altro vede, host compreso. Questo peer non serve il motore delle carte, quindi un browser qui può solo guardare.",
    "Loading the card engine (Python run in this page, about 14 MB the first time): {step}…":
      "Carico il motore delle carte (Python eseguito in questa pagina, circa 14 MB la prima volta): {step}…",
    "The card engine could not load, so this page cannot sit at a table with hidden cards: {why}":
      "Il motore delle carte non si è caricato, quindi questa pagina non può sedersi a un tavolo con carte nascoste: {why}",
    "The card engine failed to load: {why}": "Il motore delle carte non si è caricato: {why}",
    "starting": "avvio",
    "Hidden cards": "Carte nascoste",
    "The seats deal the cards themselves, so no one, the host included, sees another's hand; fair play too. For games that deal hidden cards (some need their own option too). This page first loads the card engine.":
      "I posti distribuiscono da sé le carte, così nessuno, host compreso, vede la mano di un altro; anche gioco leale. Per i giochi che distribuiscono carte nascoste (alcuni vogliono anche una loro opzione). Questa pagina carica prima il motore delle carte.",
    "downloading Python": "scarico Python",
    "loading the game's rules": "carico le regole del gioco",
    "The host sent a random event that does not check: {what}": "L'host ha mandato un evento casuale che non torna: {what}",
    "The table asked this page for a {kind} it cannot give (seat {seat}); the seat's secret is kept in the browser that sat down.":
      "Il tavolo ha chiesto a questa pagina un {kind} che non può dare (posto {seat}); il segreto del posto è nel browser che si è seduto.",
    "This browser cannot sign, so it cannot play at a fair table (it can watch).":
      "Questo browser non sa firmare, quindi non può giocare a un tavolo leale (può guardare).",
    // seats.js: bots from the page, seats handed to a bot, names
    "Random": "Casuale",
    "Greedy": "Avido",
    "Thinking": "Riflessivo",
    "random": "casuale",
    "greedy": "avido",
    "thinking": "riflessivo",
    "plays any allowed move: good for learning the rules": "gioca una mossa qualsiasi tra quelle permesse: ottimo per imparare le regole",
    "takes the move that looks best right now": "sceglie la mossa che sembra migliore in quel momento",
    "looks ahead before it moves; stronger and slower": "pensa alle mosse successive prima di muovere; più forte e più lento",
    "1 (quick)": "1 (veloce)",
    "5 (strong, a second a move)": "5 (forte, un secondo a mossa)",
    "How the bot plays": "Come gioca il bot",
    "Strength": "Forza",
    "Bot": "Bot",
    "strength {n}": "forza {n}",
    "A {kind} bot{strength} plays for {name} until {name} is back.": "Un bot {kind}{strength} gioca per {name} finché {name} non torna.",
    "Starting…": "Si avvia…",
    "{name} sat down at seat {seat}.": "{name} si è seduto al posto {seat}.",
    "Add a bot": "Aggiungi un bot",
    "Bots": "Bot",
    "No one else around? A bot can take a free seat; this computer runs it until the game ends.":
      "Non c'è nessun altro? Un bot può prendere un posto libero; lo fa girare questo computer fino alla fine della partita.",
    "Stop the bot": "Ferma il bot",
    "Take my seat back": "Riprendo il mio posto",
    "{name} is away ({seconds} s).": "{name} non c'è ({seconds} s).",
    "{name} is away.": "{name} non c'è.",
    "A bot plays for {name} until they come back.": "Un bot gioca per {name} finché non torna.",
    "Let a bot play for {name}": "Fai giocare un bot per {name}",
    "Away and bots": "Assenti e bot",
    "Have to go? A bot can play your seat": "Devi andare? Un bot può giocare al tuo posto",
    "Let a bot play for me": "Fai giocare un bot per me",
    // undo by consent (undo.js)
    "Undo my last move": "Annulla la mia ultima mossa",
    "The other players are asked first.": "Prima si chiede agli altri giocatori.",
    "Yes, let them take it back": "Sì, può riprenderla",
    "No, the move stands": "No, la mossa resta",
    "Taking back a move:": "Riprendere una mossa:",
    "ask the other players": "chiedi agli altri giocatori",
    "ask only the people, not the bots": "chiedi solo alle persone, non ai bot",
    "always allowed": "sempre permesso",
    "never": "mai",
    "You can come back to this table and take your seat back.": "Puoi tornare a questo tavolo e riprenderti il posto.",
    "A bot plays your seat now. Come back to this table to take it back.": "Ora un bot gioca al tuo posto. Torna a questo tavolo per riprendertelo.",
    "Your seat is yours again; the bot stopped.": "Il posto è di nuovo tuo; il bot si è fermato.",
    "You are {name} now, here and at the next table you sit at.": "Ora sei {name}, qui e al prossimo tavolo a cui ti siedi.",
    "You will be {name} when the connection is back.": "Sarai {name} quando torna la connessione.",
    // chat.js, alerts.js, rematch.js (issue 30)
    "A short sound when it becomes your turn": "Un breve suono quando tocca a te",
    "Chat": "Chat",
    "Chat with everyone on this peer": "Chatta con tutti su questo peer",
    "Go to the new table": "Vai al nuovo tavolo",
    "It is your turn at table {id}.": "Tocca a te al tavolo {id}.",
    "Mute {name}: hide their lines": "Silenzia {name}: nascondi le sue righe",
    "Muted:": "Silenziati:",
    "No notifications here: this page comes over plain http on your network, and browsers allow notifications only on secure (https) pages. The tab's title and icon change on your turn, and the sound plays if you turn it on.": "Niente notifiche qui: questa pagina arriva in semplice http dalla tua rete, e i browser permettono le notifiche solo su pagine sicure (https). Il titolo e l'icona della scheda cambiano quando tocca a te, e il suono suona se lo attivi.",
    "No one has said anything yet.": "Nessuno ha ancora detto niente.",
    "No thanks": "No, grazie",
    "Notifications are blocked for this page in the browser's settings.": "Le notifiche per questa pagina sono bloccate nelle impostazioni del browser.",
    "Notifications are on: one shows when it is your turn and this page is not in front.": "Notifiche attive: ne compare una quando tocca a te e questa pagina non è in primo piano.",
    "Notify me on my turn": "Avvisami quando tocca a me",
    "Opens a new table of this game with the same options and people, seats rotated; each of them says yes first. Bots come along.": "Apre un nuovo tavolo di questo gioco con le stesse opzioni e persone, posti ruotati; ognuno prima dice di sì. I bot vengono anche loro.",
    "Play again": "Gioca ancora",
    "Players and spectators read each other now that the game is over.": "Ora che la partita è finita giocatori e spettatori si leggono a vicenda.",
    "Same game, same options, seats rotated.": "Stesso gioco, stesse opzioni, posti ruotati.",
    "Say something…": "Scrivi qualcosa…",
    "Sound on my turn": "Suono quando tocca a me",
    "The game is over: you read what the spectators said too.": "La partita è finita: leggi anche ciò che hanno detto gli spettatori.",
    "This browser has no notifications; the tab's title and icon change on your turn.": "Questo browser non ha notifiche; il titolo e l'icona della scheda cambiano quando tocca a te.",
    "Unmute {name}": "Riattiva {name}",
    "Watch the rematch": "Guarda la rivincita",
    "You are watching: your lines go to the other spectators only; the players read them when the game is over. You read the players' lines.": "Stai guardando: le tue righe vanno solo agli altri spettatori; i giocatori le leggono a partita finita. Tu leggi le righe dei giocatori.",
    "You said no to this rematch.": "Hai detto no a questa rivincita.",
    "Your chat line": "La tua riga di chat",
    "Your lines go to the players and the spectators; the spectators' own chat reaches you when the game is over.": "Le tue righe vanno ai giocatori e agli spettatori; la chat degli spettatori ti arriva a partita finita.",
    "Your move": "Tocca a te",
    "asked": "in attesa",
    "bot": "bot",
    "in": "c'è",
    "mute": "silenzia",
    "said no": "ha detto no",
    "{name} (unmute)": "{name} (riattiva)",
    "{name} (watching)": "{name} (spettatore)",
    "{who} asks for a rematch": "{who} chiede la rivincita",
    // clock.js: turn clocks and pause
    "Paused: the game goes on when every player agrees.": "In pausa: la partita riprende quando tutti i giocatori sono d'accordo.",
    "then the seat forfeits": "poi il posto perde a tavolino",
    "then a bot plays the seat": "poi un bot gioca al suo posto",
    "Clock: {time} a player, plus {inc} s a move; {then}.": "Orologio: {time} a giocatore, più {inc} s a mossa; {then}.",
    "Clock: {time} a player; {then}.": "Orologio: {time} a giocatore; {then}.",
    "Clock: {s} s a decision; {then}.": "Orologio: {s} s a decisione; {then}.",
    "The table is paused; the clock is stopped.": "Il tavolo è in pausa; l'orologio è fermo.",
    "{who} asks to pause the table; waiting for {waiting}.": "{who} chiede di mettere in pausa il tavolo; si aspetta {waiting}.",
    "{who} asks to resume the table; waiting for {waiting}.": "{who} chiede di riprendere la partita; si aspetta {waiting}.",
    "Agree to pause": "D'accordo, pausa",
    "Agree to resume": "D'accordo, si riprende",
    "Say no": "No",
    "Ask to resume": "Chiedi di riprendere",
    "Ask to pause": "Chiedi una pausa",
    "Turn clock": "Orologio dei turni",
    "Clock": "Orologio",
    "none": "nessuno",
    "seconds per decision": "secondi per decisione",
    "minutes per player (chess clock)": "minuti per giocatore (come negli scacchi)",
    "Time (seconds; minutes for a chess clock)": "Tempo (secondi; minuti con l'orologio degli scacchi)",
    "Added per move, chess clock (s)": "Aggiunti a mossa, orologio degli scacchi (s)",
    "Out of time": "Tempo scaduto",
    "a bot plays until the player is back": "gioca un bot finché il giocatore non torna",
    "the player forfeits": "il giocatore perde a tavolino",
    // replays of finished games (replay.js)
    "A kept game survives when the host tidies its journal": "Una partita conservata resta quando l'host riordina il suo registro",
    "Back to the lobby": "Torna alla sala",
    "Connecting…": "Connessione…",
    "Final scores: {list}.": "Punteggi finali: {list}.",
    "Forward ▶": "Avanti ▶",
    "Hide": "Nascondi",
    "Keep this game": "Conserva questa partita",
    "Kept ✓": "Conservata ✓",
    "Loading the replay…": "Caricamento della replica…",
    "Move": "Mossa",
    "Move {k}": "Mossa {k}",
    "Move {k} of {n}.": "Mossa {k} di {n}.",
    "Move {k}: {name}": "Mossa {k}: {name}",
    "Nothing this view could see happened.": "Niente di visibile da questa vista è successo.",
    "One move back (left arrow)": "Una mossa indietro (freccia sinistra)",
    "One move forward (right arrow)": "Una mossa avanti (freccia destra)",
    "Only the public view: the hidden cards of this game were dealt among the players, and this host never saw them.": "Solo la vista pubblica: le carte nascoste di questa partita sono state distribuite tra i giocatori e questo host non le ha mai viste.",
    "Played by {names}.": "Giocata da {names}.",
    "Replay": "Rivedi",
    "Replay of {game}": "Replica di {game}",
    "Show 1 older finished game": "Mostra 1 partita finita più vecchia",
    "Show older finished games ({n} more)": "Mostra partite finite più vecchie (altre {n})",
    "Spectator (what everyone saw)": "Spettatore (ciò che tutti vedevano)",
    "Take this finished game off the list, for everyone": "Togli questa partita finita dall'elenco, per tutti",
    "The finished game was taken off the list. Its record is kept.": "La partita finita è stata tolta dall'elenco. Il suo registro resta.",
    "The game's board could not be drawn for this move.": "Il tabellone del gioco non si è potuto disegnare per questa mossa.",
    "The start, before the first move (of {n}).": "L'inizio, prima della prima mossa (di {n}).",
    "The table as it was set up. Step forward to see the first move.": "Il tavolo com'era all'inizio. Vai avanti per vedere la prima mossa.",
    "This game is no longer marked to keep.": "Questa partita non è più da conservare.",
    "This game will be kept.": "Questa partita sarà conservata.",
    "This replay cannot be shown: {why}": "Questa replica non si può mostrare: {why}",
    "To the end": "Alla fine",
    "To the start": "All'inizio",
    "Whose view": "La vista di chi",
    "a replay asks nothing of the game": "una replica non chiede nulla al gioco",
    "{name}'s view": "La vista di {name}",
    "◀ Back": "◀ Indietro",
    "ended at {time}": "finita alle {time}",
    "ended {date}": "finita il {date}",
    "{name} won": "ha vinto {name}",
    "{names} shared the win": "{names} hanno vinto a pari merito",
    "kept": "conservata",
    "1 finished game": "1 partita finita",
    "{n} finished games": "{n} partite finite",
  };
  const DICTS = { it: IT };
  const games = {};  // game id -> lang -> [[RegExp, replacement]]
  const titles = {};  // game id -> lang -> title

  const browser = (navigator.language || "en").toLowerCase().startsWith("it") ? "it" : "en";
  let lang = LANGS.includes(localStorage.getItem("lantable.lang")) ? localStorage.getItem("lantable.lang") : browser;

  function t(key, vars) {
    const dict = DICTS[lang];
    let text = (dict && dict[key]) || key;
    if (vars) text = text.replace(/\{(\w+)\}/g, (m, k) => (k in vars ? String(vars[k]) : m));
    return text;
  }

  function addGame(game, language, phrases) {
    if (!LANGS.includes(language) || !Array.isArray(phrases)) return;
    games[game] = games[game] || {};
    const list = games[game][language] = games[game][language] || [];
    for (const entry of phrases) {
      if (!Array.isArray(entry) || entry.length !== 2) continue;
      let [pattern, replacement] = entry;
      try {
        if (!(pattern instanceof RegExp)) pattern = new RegExp(String(pattern), "g");
        else if (!pattern.global) pattern = new RegExp(pattern.source, pattern.flags + "g");
      } catch (e) {
        console.warn(`lantable: ${game}'s ${language} phrase ${pattern} is not a regular expression`, e);
        continue;
      }
      list.push([pattern, String(replacement)]);
    }
  }

  // game_info's `translations`: {lang: {title, phrases}}.
  function addGameInfo(game, translations) {
    if (!translations || typeof translations !== "object") return;
    for (const [language, words] of Object.entries(translations)) {
      if (!words || typeof words !== "object") continue;
      if (typeof words.title === "string") (titles[game] = titles[game] || {})[language] = words.title;
      addGame(game, language, words.phrases);
    }
  }

  function game(id, text) {
    if (typeof text !== "string") return text;
    const title = titles[id] && titles[id][lang];
    const list = games[id] && games[id][lang];
    if (!list && !title) return text;
    let out = text;
    for (const [pattern, replacement] of list || []) {
      pattern.lastIndex = 0;
      out = out.replace(pattern, replacement);
    }
    return out;
  }

  // The game's title: its translation when the game gives one.
  function gameTitle(id, title) { return (titles[id] && titles[id][lang]) || game(id, title); }

  window.lantableI18n = {
    t, addGame, addGameInfo, gameTitle,
    game: (id, text) => game(id, text),
    hasGame: (id) => !!(games[id] && games[id][lang]),
    lang: () => lang,
    setLang(next) {
      if (!LANGS.includes(next)) return;
      lang = next;
      localStorage.setItem("lantable.lang", next);
    },
    dictionary: (language) => Object.assign({}, DICTS[language] || {}),
  };
})();
