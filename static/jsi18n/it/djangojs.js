
'use strict';
{
  const globals = this;
  const django = globals.django || (globals.django = {});

  
  django.pluralidx = function(n) {
    const v = (n != 1);
    if (typeof v === 'boolean') {
      return v ? 1 : 0;
    } else {
      return v;
    }
  };
  

  /* gettext library */

  django.catalog = django.catalog || {};
  
  const newcatalog = {
    "%(card)s (matched)": "%(card)s (in coppia)",
    "%(card)s, not playable": "%(card)s, non giocabile",
    "%(card)s, playable": "%(card)s, giocabile",
    "%(card)s, playable, key %(key)s": "%(card)s, giocabile, tasto %(key)s",
    "%(count)s card": [
      "%(count)s carta",
      "%(count)s carte"
    ],
    "%(count)s day": [
      "%(count)s giorno",
      "%(count)s giorni"
    ],
    "%(count)s move": [
      "%(count)s mossa",
      "%(count)s mosse"
    ],
    "%(count)s pass": [
      "%(count)s passaggio",
      "%(count)s passaggi"
    ],
    "%(count)s second left for this move": [
      "%(count)s secondo rimasto per questa mossa",
      "%(count)s secondi rimasti per questa mossa"
    ],
    "%(counter)s unread notification": [
      "%(counter)s notifica non letta",
      "%(counter)s notifiche non lette"
    ],
    "%(hours)s h": "%(hours)s h",
    "%(hours)s h %(minutes)s min": "%(hours)s h %(minutes)s min",
    "%(label)s: %(value)s": "%(label)s: %(value)s",
    "%(minutes)s min": "%(minutes)s min",
    "%(name)s (%(level)s)": "%(name)s (%(level)s)",
    "%(name)s (you)": "%(name)s (tu)",
    "%(name)s deals": "distribuisce %(name)s",
    "%(name)s drew": "%(name)s ha pescato",
    "%(name)s has %(left)s to move (until %(at)s)": "%(name)s ha %(left)s per la sua mossa (entro il %(at)s)",
    "%(name)s has not moved for a while.": "%(name)s non muove da un po'.",
    "%(name)s holds %(card)s": "%(name)s tiene %(card)s",
    "%(name)s holds a drawn card": "%(name)s tiene una carta pescata",
    "%(name)s is away until %(until)s": "%(name)s \u00e8 assente: ultimo giorno %(until)s",
    "%(name)s is back and plays again.": "%(name)s \u00e8 di nuovo al tavolo e gioca.",
    "%(name)s is deciding where the drawn card goes.": "%(name)s sta decidendo dove mettere la carta pescata.",
    "%(name)s is left holding cards and loses.": "%(name)s resta con le carte in mano e perde.",
    "%(name)s is out first and wins.": "Vittoria: %(name)s chiude le carte prima di tutti.",
    "%(name)s left the game: the house plays their seat to the end.": "%(name)s ha lasciato la partita: il club gioca il suo posto fino alla fine.",
    "%(name)s loses: left the game.": "%(name)s perde: ha lasciato la partita.",
    "%(name)s loses: the last with cards.": "Sconfitta: %(name)s ha ancora carte in mano alla fine.",
    "%(name)s passed": "%(name)s passa",
    "%(name)s played %(card)s": "%(name)s ha giocato %(card)s",
    "%(name)s to move": "tocca a %(name)s",
    "%(name)s to move holding %(card)s": "tocca a %(name)s, con in mano %(card)s",
    "%(name)s to move.": "Tocca a %(name)s.",
    "%(name)s went out and scored +10: someone else was lower.": "%(name)s ha chiuso e ha preso +10: qualcun altro aveva meno.",
    "%(name)s went out with the lowest score: no penalty.": "%(name)s ha chiuso con il punteggio pi\u00f9 basso: nessuna penalit\u00e0.",
    "%(name)s went out!": "%(name)s ha chiuso!",
    "%(name)s went out: %(count)s last turn left": [
      "%(name)s ha chiuso: resta %(count)s ultimo turno",
      "%(name)s ha chiuso: restano %(count)s ultimi turni"
    ],
    "%(name)s wins with %(score)s.": "%(name)s vince con %(score)s.",
    "%(name)s wins.": "%(name)s vince.",
    "%(name)s wins: out first.": "Vittoria: %(name)s chiude le carte prima di tutti.",
    "%(name)s \u00b7 resigned": "%(name)s \u00b7 ha abbandonato",
    "%(name)s, to move": "%(name)s, di turno",
    "%(name)s: %(stats)s": "%(name)s: %(stats)s",
    "%(name)s: %(stats)s, to move": "%(name)s: %(stats)s, di turno",
    "%(names)s and %(last)s": "%(names)s e %(last)s",
    "%(names)s is out": [
      "Uscita: %(names)s",
      "Uscite: %(names)s"
    ],
    "%(names)s passed": [
      "%(names)s passa",
      "%(names)s passano"
    ],
    "%(names)s share first place with %(score)s.": "%(names)s condividono il primo posto con %(score)s.",
    "%(seconds)ss": "%(seconds)s s",
    "%(slot)s, key %(key)s: %(action)s": "%(slot)s, tasto %(key)s: %(action)s",
    "%(suit)s: %(low)s to %(high)s": "%(suit)s: da %(low)s a %(high)s",
    "%(suit)s: not open": "%(suit)s: non aperti",
    "(+10 for going out without the lowest score)": "(+10 per aver chiuso senza il punteggio pi\u00f9 basso)",
    "(by the house)": "(dal club)",
    "(went out)": "(ha chiuso)",
    ", discarding %(card)s": ", scartando %(card)s",
    "1\u20139: swap into that slot \u00b7 X: discard it and pick a face-down card \u00b7 Esc: cancel \u00b7 arrows move": "1\u20139: scambia in quella posizione \u00b7 X: scartala e scegli una carta coperta \u00b7 Esc: annulla \u00b7 frecce per muoversi",
    "Accept the rematch": "Accetta la rivincita",
    "Better: ": "Meglio: ",
    "Cancel": "Annulla",
    "Cards left": "Carte rimaste",
    "Cards of %(name)s: %(grid)s": "Carte di %(name)s: %(grid)s",
    "Cards of one rank in a column score 0 when all three match.": "Le carte dello stesso valore in colonna valgono 0 quando sono tutte e tre uguali.",
    "Cards of one rank in a column score 0.": "Le carte dello stesso valore in colonna valgono 0.",
    "Click a card or press 1\u20139 to turn it up \u00b7 R: ready": "Fai clic su una carta o premi 1\u20139 per scoprirla \u00b7 R: fatto",
    "Click a move, or press its number (1\u20139).": "Fai clic su una mossa o premi il suo numero (1\u20139).",
    "Click any of your cards (1\u20139) to swap the %(card)s in, or discard it and turn up a face-down card.": "Fai clic su una delle tue carte (1\u20139) per metterci il %(card)s, oppure scartalo e scopri una carta coperta.",
    "Closed": "Chiuso",
    "Column match needs three of a rank": "Una colonna vale 0 solo con tre carte uguali",
    "Copied!": "Copiato!",
    "Copy": "Copia",
    "D: draw \u00b7 T: take the discard, then 1\u20139 \u00b7 1\u20139: turn up a face-down card \u00b7 Esc: cancel \u00b7 arrows move": "D: pesca \u00b7 T: prendi lo scarto, poi 1\u20139 \u00b7 1\u20139: scopri una carta coperta \u00b7 Esc: annulla \u00b7 frecce per muoversi",
    "Discard": "Scarti",
    "Discard it, flip a card": "Scartala, scopri una carta",
    "Discard pile: %(card)s": "Pila degli scarti: %(card)s",
    "Discard pile: %(card)s: discard your drawn card here, then pick a face-down card to turn up (key X)": "Pila degli scarti: %(card)s: scarta qui la carta pescata, poi scegli una carta coperta da scoprire (tasto X)",
    "Discard pile: %(card)s: take it, then pick the slot for it (key T)": "Pila degli scarti: %(card)s: prendila, poi scegli la posizione (tasto T)",
    "Dismiss": "Chiudi",
    "Draw": "Pesca",
    "Draw from the stock (key D)": "Pesca dal mazzo (tasto D)",
    "Draw from the stock, take the discard, or click a face-down card to turn it up (1\u20139).": "Pesca dal mazzo, prendi lo scarto o fai clic su una carta coperta per scoprirla (1\u20139).",
    "Drawn by %(name)s": "Pescata da %(name)s",
    "Empty seat": "Posto libero",
    "Every grid": "Tutte le griglie",
    "Every grid is shown as it was; the cards still face down at that moment are dimmed and hatched.": "Ogni griglia \u00e8 mostrata com'era; le carte ancora coperte in quel momento sono attenuate e tratteggiate.",
    "Every hand": "Tutte le mani",
    "Every hand is shown as it was; the cards the player to move could play are outlined.": "Ogni mano \u00e8 mostrata com'era; le carte che il giocatore di turno poteva giocare sono evidenziate.",
    "Everyone turns up to two cards, then says ready.": "Ognuno scopre fino a due carte, poi preme Fatto.",
    "Finished": "Finita",
    "First place shared: %(names)s.": "Primo posto condiviso: %(names)s.",
    "Game over. %(summary)s": "Partita finita. %(summary)s",
    "Good game": "Bella partita",
    "Good luck": "Buona fortuna",
    "Here %(name)s played %(played)s (%(verdict)s, expected %(value)s). ": "Qui %(name)s ha giocato %(played)s (%(verdict)s, atteso %(value)s). ",
    "Holding a drawn card": "Tiene una carta pescata",
    "House move for you (%(why)s): %(move)s": "Mossa del club per te (%(why)s): %(move)s",
    "Last turn: %(names)s.": [
      "Ultimo turno: %(names)s.",
      "Ultimi turni: %(names)s."
    ],
    "Let the house play for %(name)s": "Lascia giocare il club per %(name)s",
    "Lowest total wins. out: went out that round \u00b7 +10: went out without the lowest round score (included).": "Vince il totale pi\u00f9 basso. out: ha chiuso quella mano \u00b7 +10: ha chiuso senza il punteggio pi\u00f9 basso della mano (incluso).",
    "Match over after %(count)s round": [
      "Partita finita dopo %(count)s mano",
      "Partita finita dopo %(count)s mani"
    ],
    "Move %(index)s of %(last)s": "Mossa %(index)s di %(last)s",
    "Mute": "Silenzia",
    "Mute %(name)s everywhere": "Silenzia %(name)s ovunque",
    "Muted: you will not see their messages, at any table.": "Silenziato: non vedrai i suoi messaggi, a nessun tavolo.",
    "Needs at least %(counter)s player.": [
      "Serve almeno %(counter)s giocatore.",
      "Servono almeno %(counter)s giocatori."
    ],
    "Not connected; try again in a moment.": "Nessuna connessione; riprova tra un momento.",
    "Nothing for you to play now.": "Per ora non hai nulla da giocare.",
    "Notifications are blocked for the club in this browser's settings: allow them there first.": "Le notifiche del club sono bloccate nelle impostazioni di questo browser: consentile prima l\u00ec.",
    "Now pick a face-down card to turn up; the %(card)s is discarded.": "Ora scegli una carta coperta da scoprire; il %(card)s va negli scarti.",
    "Now pick the slot for the %(card)s (1\u20139).": "Ora scegli la posizione per il %(card)s (1\u20139).",
    "Offer a rematch": "Proponi la rivincita",
    "One more?": "Un'altra?",
    "Out %(place)s": "Uscita %(place)s",
    "Out order: %(order)s \u00b7 Loser: %(loser)s": "Ordine di uscita: %(order)s \u00b7 Perdente: %(loser)s",
    "Passes": "Passaggi",
    "Penalties: %(list)s.": "Penalit\u00e0: %(list)s.",
    "Place": "Posizione",
    "Play %(move)s": "Gioca %(move)s",
    "Play %(move)s, key %(key)s": "Gioca %(move)s, tasto %(key)s",
    "Player": "Giocatore",
    "Playing": "In gioco",
    "Playing your card\u2026": "Gioco la tua carta\u2026",
    "Points": "Punti",
    "Push is off for this device.": "Le notifiche push sono disattivate su questo dispositivo.",
    "Push is on for this device.": "Le notifiche push sono attive su questo dispositivo.",
    "R%(number)s": "M%(number)s",
    "Rating in this game": "Rating in questo gioco",
    "Rating in this game (provisional)": "Rating in questo gioco (provvisorio)",
    "Ready": "Fatto",
    "Ready: start playing (key R)": "Fatto: inizia a giocare (tasto R)",
    "Remove": "Togli",
    "Report": "Segnala",
    "Report this message by %(name)s": "Segnala questo messaggio di %(name)s",
    "Reported. Why? (optional)": "Segnalato. Perch\u00e9? (facoltativo)",
    "Round %(round)s": "Mano %(round)s",
    "Round %(round)s of %(rounds)s": "Mano %(round)s di %(rounds)s",
    "Round %(round)s scored (the last round):": "Punteggio della mano %(round)s (l'ultima):",
    "Round %(round)s scored:": "Punteggio della mano %(round)s:",
    "Round %(round)s scored: %(name)s went out (+10: not the lowest).": "Mano %(round)s contata: %(name)s ha chiuso (+10: non il pi\u00f9 basso).",
    "Round %(round)s scored: %(name)s went out.": "Mano %(round)s contata: %(name)s ha chiuso.",
    "Round %(round)s: every card turned up": "Mano %(round)s: tutte le carte scoperte",
    "Round %(round)s: the last grids": "Mano %(round)s: le ultime griglie",
    "Round scores and totals": "Punteggi delle mani e totali",
    "Row %(row)s, column %(column)s, %(card)s": "Riga %(row)s, colonna %(column)s, %(card)s",
    "Say something\u2026": "Scrivi qualcosa\u2026",
    "Scores": "Punteggi",
    "Seat %(number)s": "Posto %(number)s",
    "See the scores": "Vedi i punteggi",
    "Select and copy": "Seleziona e copia",
    "Send": "Invia",
    "Sending your move\u2026": "Invio della mossa\u2026",
    "Sorry, I have to go": "Scusate, devo andare",
    "Stock": "Mazzo",
    "Stock, %(cards)s": "Mazzo, %(cards)s",
    "Stock, %(cards)s: draw the top card (key D)": "Mazzo, %(cards)s: pesca la prima carta (tasto D)",
    "Swap into a slot": "Mettila al posto di una carta",
    "Take %(card)s": "Prendi %(card)s",
    "Take %(card)s from the discard, then pick a slot (key T)": "Prendi %(card)s dagli scarti, poi scegli una posizione (tasto T)",
    "Take it": "Prendila",
    "Tap up to one more of your face-down cards to turn it up (keys 1\u20139), then press Ready.": "Tocca ancora al massimo una delle tue carte coperte per scoprirla (tasti 1\u20139), poi premi Fatto.",
    "Tap up to two of your face-down cards to turn them up (keys 1\u20139), then press Ready.": "Tocca fino a due delle tue carte coperte per scoprirle (tasti 1\u20139), poi premi Fatto.",
    "Thank you.": "Grazie.",
    "Thanks": "Grazie",
    "The analysis is done; reload the page to see it.": "L'analisi \u00e8 pronta; ricarica la pagina per vederla.",
    "The club could not save this. Try again later.": "Il club non \u00e8 riuscito a salvarlo. Riprova pi\u00f9 tardi.",
    "The deal": "La distribuzione",
    "The deal: %(name)s holds 9\u2666 and opens.": "La distribuzione: %(name)s ha il 9\u2666 e apre.",
    "The game": "La partita",
    "The house": "Il club",
    "The house is playing for you: you were idle, so the others handed your seat over.": "Il club sta giocando per te: non facevi mosse da un po', quindi gli altri hanno ceduto il tuo posto.",
    "The house now plays for %(name)s, who was idle.": "Ora il club gioca per %(name)s: nessuna mossa da un po'.",
    "The house now plays for %(name)s: their time ran out %(count)s time in a row.": [
      "Ora il club gioca per %(name)s: il tempo per la mossa \u00e8 scaduto %(count)s volta di fila.",
      "Ora il club gioca per %(name)s: il tempo per la mossa \u00e8 scaduto %(count)s volte di fila."
    ],
    "The match is over: %(names)s share the lowest total.": "La partita \u00e8 finita: %(names)s condividono il totale pi\u00f9 basso.",
    "The match is over: %(names)s wins with the lowest total.": "La partita \u00e8 finita: %(names)s vince con il totale pi\u00f9 basso.",
    "The others can now hand your seat to the house: play to keep it.": "Ora gli altri possono cedere il tuo posto al club: gioca per tenerlo.",
    "The others handed your idle seat to the house.": "Gli altri hanno ceduto al club il tuo posto inattivo.",
    "The replay could not be loaded.": "Impossibile caricare il replay.",
    "The replay could not be loaded: the site did not answer. Try again later.": "Impossibile caricare il replay: il sito non ha risposto. Riprova pi\u00f9 tardi.",
    "The round ends.": "La mano finisce.",
    "The site did not answer: try again later.": "Il sito non ha risposto: riprova pi\u00f9 tardi.",
    "The stock and the discard pile": "Il mazzo e la pila degli scarti",
    "This browser cannot receive push notifications from the club.": "Questo browser non pu\u00f2 ricevere notifiche push dal club.",
    "This game has no replay board yet.": "Questo gioco non ha ancora un tavolo per il replay.",
    "This is your last turn (then %(names)s).": "Questo \u00e8 il tuo ultimo turno (poi %(names)s).",
    "This is your last turn.": "Questo \u00e8 il tuo ultimo turno.",
    "This table was closed.": "Questo tavolo \u00e8 stato chiuso.",
    "Total": "Totale",
    "Total %(score)s": "Totale %(score)s",
    "Turn sound: off": "Suono del turno: spento",
    "Turn sound: on": "Suono del turno: acceso",
    "Turn up to two of your cards, then press Ready.": "Scopri fino a due delle tue carte, poi premi Fatto.",
    "Waiting for %(name)s. In %(time)s the players can hand their seat to the house.": "In attesa di %(name)s. Tra %(time)s i giocatori potranno cedere il suo posto al club.",
    "Waiting for %(names)s to be ready.": "In attesa dell'ok di: %(names)s.",
    "Waiting for players": "In attesa di giocatori",
    "Waiting for players: %(seated)s/%(seats)s seated.": "In attesa di giocatori: %(seated)s/%(seats)s seduti.",
    "Waiting for the others.": "In attesa degli altri.",
    "Waiting for the others\u2026": "In attesa degli altri\u2026",
    "Well played": "Ben giocato",
    "Went out": "Ha chiuso",
    "Went out, not the lowest: +10 included": "Ha chiuso, ma non con il pi\u00f9 basso: +10 incluso",
    "Write something first.": "Scrivi prima qualcosa.",
    "You": "Tu",
    "You are away until %(until)s": "Sei assente: ultimo giorno %(until)s",
    "You are ready. Play starts when everyone is.": "Hai dato l'ok. Il gioco inizia quando lo danno tutti.",
    "You cannot follow this table live.": "Non puoi seguire questo tavolo in diretta.",
    "You drew": "Hai pescato",
    "You drew %(card)s": "Hai pescato %(card)s",
    "You drew the %(card)s: swap it in, or discard it and turn up a card.": "Hai pescato il %(card)s: mettilo al posto di una carta, oppure scartalo e scopri una carta.",
    "You have %(left)s to move (until %(at)s)": "Hai %(left)s per la tua mossa (entro il %(at)s)",
    "You left this game.": "Hai lasciato questa partita.",
    "You left this game. The house plays your seat to the end.": "Hai lasciato questa partita. Il club gioca il tuo posto fino alla fine.",
    "You lose this one: the last with cards.": "Questa la perdi: sei l'ultimo con carte in mano.",
    "You lose this one: you left the game.": "Questa la perdi: hai lasciato la partita.",
    "You may not chat until %(until)s (%(reason)s).": "Non puoi usare la chat fino al %(until)s (%(reason)s).",
    "You may not chat until %(until)s.": "Non puoi usare la chat fino al %(until)s.",
    "You turned up two cards. Press Ready when you are done.": "Hai scoperto due carte. Premi Fatto quando hai finito.",
    "You win with %(score)s!": "Vinci con %(score)s!",
    "You win!": "Hai vinto!",
    "You win: out first!": "Hai vinto: hai finito le carte prima di tutti!",
    "Your cards": "Le tue carte",
    "Your cards: your turn": "Le tue carte: tocca a te",
    "Your hand": "La tua mano",
    "Your hand is empty: you are out.": "La tua mano \u00e8 vuota: hai chiuso.",
    "Your hand: your turn": "La tua mano: tocca a te",
    "Your last turn: draw, take the %(card)s, or turn up a card.": "Il tuo ultimo turno: pesca, prendi il %(card)s o scopri una carta.",
    "Your last turn: draw, take the discard, or turn up a card.": "Il tuo ultimo turno: pesca, prendi lo scarto o scopri una carta.",
    "Your time ran out %(count)s time in a row: the house plays your seat to the end of this game.": [
      "Il tuo tempo \u00e8 scaduto %(count)s volta di fila: il club gioca il tuo posto fino alla fine di questa partita.",
      "Il tuo tempo \u00e8 scaduto %(count)s volte di fila: il club gioca il tuo posto fino alla fine di questa partita."
    ],
    "Your turn": "Tocca a te",
    "Your turn. In %(time)s the others can hand your seat to the house.": "Tocca a te. Tra %(time)s gli altri potranno cedere il tuo posto al club.",
    "Your turn: choose a move.": "Tocca a te: scegli una mossa.",
    "Your turn: draw, take the %(card)s, or turn up a card.": "Tocca a te: pesca, prendi il %(card)s o scopri una carta.",
    "Your turn: draw, take the discard, or turn up a card.": "Tocca a te: pesca, prendi lo scarto o scopri una carta.",
    "Your turn: play a lifted card.": "Tocca a te: gioca una carta sollevata.",
    "a day and a time of day, in a sentence\u0004%(day)s, %(time)s": "%(day)s, alle %(time)s",
    "away": "assente",
    "blunder": "errore grave",
    "bot": "bot",
    "bot level label\u0004heuristic bot": "bot euristico",
    "bot level label\u0004random bot": "bot casuale",
    "bot level label\u0004search bot": "bot di ricerca",
    "card %(n)s: %(card)s": "carta %(n)s: %(card)s",
    "card %(n)s: %(card)s, face down": "carta %(n)s: %(card)s, coperta",
    "card name\u0004%(rank)s of %(suit)s": "%(rank)s di %(suit)s",
    "choosing": "sceglie",
    "discard pile: %(card)s": "pila degli scarti: %(card)s",
    "discard the drawn card and flip this one": "scarta la carta pescata e scopri questa",
    "discarded": "ha scartato",
    "discarded %(card)s and turned up card %(n)s: %(old)s": "ha scartato %(card)s e scoperto la carta %(n)s: %(old)s",
    "discarded %(card)s, turned up card %(n)s": "ha scartato %(card)s, scoperto la carta %(n)s",
    "discarded it, turned up card %(n)s": "l'ha scartata, scoperto la carta %(n)s",
    "drew": "ha pescato",
    "drew %(card)s": "ha pescato %(card)s",
    "drew %(card)s from the stock": "ha pescato %(card)s dal mazzo",
    "drew a card": "ha pescato una carta",
    "empty": "vuota",
    "everyone turns up two cards (%(ready)s of %(players)s ready).": "tutti scoprono due carte (ok da %(ready)s su %(players)s).",
    "face down": "coperta",
    "fine": "buona",
    "flip it": "scoprila",
    "forced": "forzata",
    "holding a card": "ha una carta in mano",
    "holding a drawn card": "ha in mano una carta pescata",
    "host": "organizzatore",
    "house bot: always in": "bot del club: ci sta sempre",
    "in": "ci sta",
    "inaccuracy": "imprecisione",
    "is ready": "ha dato l'ok",
    "last turn": "ultimo turno",
    "left the game": "ha lasciato la partita",
    "mistake": "errore",
    "moved (hidden until revealed)": "ha mosso (coperto finch\u00e9 non si scopre)",
    "no": "no",
    "no cards left": "nessuna carta rimasta",
    "nobody": "nessuno",
    "not yet": "non ancora",
    "of suit\u0004clubs": "fiori",
    "of suit\u0004diamonds": "quadri",
    "of suit\u0004hearts": "cuori",
    "of suit\u0004spades": "picche",
    "ordinal\u0004%(n)sst": [
      "%(n)s\u00ba",
      "%(n)s\u00ba"
    ],
    "out": "chiusa",
    "out: went out that round \u00b7 +10: went out without the lowest score (included). Lowest total wins.": "chiusa: ha chiuso quella mano \u00b7 +10: ha chiuso senza il punteggio pi\u00f9 basso (incluso). Vince il totale pi\u00f9 basso.",
    "passed": "passa",
    "played %(card)s": "ha giocato %(card)s",
    "played %(move)s": "ha giocato %(move)s",
    "put %(card)s at card %(n)s, discarding %(old)s": "ha messo %(card)s alla carta %(n)s, scartando %(old)s",
    "put %(card)s from the discard here": "metti qui %(card)s degli scarti",
    "put %(card)s in slot %(n)s": "ha messo %(card)s nella posizione %(n)s",
    "put %(card)s, the card you drew, here": "metti qui %(card)s, la carta pescata",
    "put the discard here": "metti qui lo scarto",
    "rank\u0004ace": "asso",
    "rank\u0004eight": "otto",
    "rank\u0004five": "cinque",
    "rank\u0004four": "quattro",
    "rank\u0004jack": "fante",
    "rank\u0004king": "re",
    "rank\u0004nine": "nove",
    "rank\u0004queen": "donna",
    "rank\u0004seven": "sette",
    "rank\u0004six": "sei",
    "rank\u0004ten": "dieci",
    "rank\u0004three": "tre",
    "rank\u0004two": "due",
    "rank, from\u0004from the ace": "dall'asso",
    "rank, from\u0004from the eight": "dall'otto",
    "rank, from\u0004from the five": "dal cinque",
    "rank, from\u0004from the four": "dal quattro",
    "rank, from\u0004from the jack": "dal fante",
    "rank, from\u0004from the king": "dal re",
    "rank, from\u0004from the nine": "dal nove",
    "rank, from\u0004from the queen": "dalla donna",
    "rank, from\u0004from the seven": "dal sette",
    "rank, from\u0004from the six": "dal sei",
    "rank, from\u0004from the ten": "dal dieci",
    "rank, from\u0004from the three": "dal tre",
    "rank, from\u0004from the two": "dal due",
    "rank, object\u0004the ace": "l'asso",
    "rank, object\u0004the eight": "l'otto",
    "rank, object\u0004the five": "il cinque",
    "rank, object\u0004the four": "il quattro",
    "rank, object\u0004the jack": "il fante",
    "rank, object\u0004the king": "il re",
    "rank, object\u0004the nine": "il nove",
    "rank, object\u0004the queen": "la donna",
    "rank, object\u0004the seven": "il sette",
    "rank, object\u0004the six": "il sei",
    "rank, object\u0004the ten": "il dieci",
    "rank, object\u0004the three": "il tre",
    "rank, object\u0004the two": "il due",
    "rank, to\u0004to the ace": "all'asso",
    "rank, to\u0004to the eight": "all'otto",
    "rank, to\u0004to the five": "al cinque",
    "rank, to\u0004to the four": "al quattro",
    "rank, to\u0004to the jack": "al fante",
    "rank, to\u0004to the king": "al re",
    "rank, to\u0004to the nine": "al nove",
    "rank, to\u0004to the queen": "alla donna",
    "rank, to\u0004to the seven": "al sette",
    "rank, to\u0004to the six": "al sei",
    "rank, to\u0004to the ten": "al dieci",
    "rank, to\u0004to the three": "al tre",
    "rank, to\u0004to the two": "al due",
    "ready": "ok",
    "round %(round)s ends": "finisce la mano %(round)s",
    "row %(row)s: %(cards)s": "riga %(row)s: %(cards)s",
    "row of cards\u0004%(suit)s: %(low)s %(high)s": "%(suit)s: %(low)s %(high)s",
    "seat badge: no connection open now\u0004offline": "non in linea",
    "shows %(score)s": "mostra %(score)s",
    "suit\u0004clubs": "fiori",
    "suit\u0004diamonds": "quadri",
    "suit\u0004hearts": "cuori",
    "suit\u0004spades": "picche",
    "swap the drawn card in here": "metti qui la carta pescata",
    "swapped": "ha scambiato",
    "swapped it into slot %(n)s": "l'ha messa nella posizione %(n)s",
    "the stock: %(cards)s": "il mazzo: %(cards)s",
    "to move": "di turno",
    "took": "ha preso",
    "took %(card)s from the discard into slot %(n)s": "ha preso %(card)s dagli scarti nella posizione %(n)s",
    "took %(card)s from the discard pile for card %(n)s, discarding %(old)s": "ha preso %(card)s dagli scarti per la carta %(n)s, scartando %(old)s",
    "took the top card from the discard into slot %(n)s": "ha preso la carta in cima agli scarti nella posizione %(n)s",
    "total %(score)s": "totale %(score)s",
    "turned up": "ha scoperto",
    "turned up card %(n)s": "ha scoperto la carta %(n)s",
    "turned up card %(n)s: %(card)s": "ha scoperto la carta %(n)s: %(card)s",
    "turning up": "scopre",
    "turning up cards": "si scoprono le carte",
    "went out": "ha chiuso",
    "went out!": "ha chiuso!",
    "went out, +10 included": "ha chiuso, +10 incluso",
    "went out, plus 10 penalty included": "ha chiuso, penalit\u00e0 di 10 inclusa",
    "yes": "s\u00ec",
    "you": "tu",
    "you are choosing": "stai scegliendo",
    "you are holding a card": "hai in mano una carta",
    "you are ready": "hai dato l'ok",
    "you deal": "distribuisci tu",
    "you discarded": "hai scartato",
    "you drew": "hai pescato",
    "you left the game": "hai lasciato la partita",
    "you passed": "hai passato",
    "you show %(score)s": "mostri %(score)s",
    "you swapped": "hai scambiato",
    "you took": "hai preso",
    "you turned up": "hai scoperto",
    "you went out": "hai chiuso",
    "you went out!": "hai chiuso!",
    "you were away": "eri assente",
    "your last turn": "il tuo ultimo turno",
    "your seat was handed to the house": "il tuo posto \u00e8 stato ceduto al club",
    "your time ran out": "il tuo tempo \u00e8 scaduto"
  };
  for (const key in newcatalog) {
    django.catalog[key] = newcatalog[key];
  }
  

  if (!django.jsi18n_initialized) {
    django.gettext = function(msgid) {
      const value = django.catalog[msgid];
      if (typeof value === 'undefined') {
        return msgid;
      } else {
        return (typeof value === 'string') ? value : value[0];
      }
    };

    django.ngettext = function(singular, plural, count) {
      const value = django.catalog[singular];
      if (typeof value === 'undefined') {
        return (count == 1) ? singular : plural;
      } else {
        return value.constructor === Array ? value[django.pluralidx(count)] : value;
      }
    };

    django.gettext_noop = function(msgid) { return msgid; };

    django.pgettext = function(context, msgid) {
      let value = django.gettext(context + '\x04' + msgid);
      if (value.includes('\x04')) {
        value = msgid;
      }
      return value;
    };

    django.npgettext = function(context, singular, plural, count) {
      let value = django.ngettext(context + '\x04' + singular, context + '\x04' + plural, count);
      if (value.includes('\x04')) {
        value = django.ngettext(singular, plural, count);
      }
      return value;
    };

    django.interpolate = function(fmt, obj, named) {
      if (named) {
        return fmt.replace(/%\(\w+\)s/g, function(match){return String(obj[match.slice(2,-2)])});
      } else {
        return fmt.replace(/%s/g, function(match){return String(obj.shift())});
      }
    };


    /* formatting library */

    django.formats = {
    "DATETIME_FORMAT": "l d F Y H:i",
    "DATETIME_INPUT_FORMATS": [
      "%d/%m/%Y %H:%M:%S",
      "%d/%m/%Y %H:%M:%S.%f",
      "%d/%m/%Y %H:%M",
      "%d/%m/%y %H:%M:%S",
      "%d/%m/%y %H:%M:%S.%f",
      "%d/%m/%y %H:%M",
      "%Y-%m-%d %H:%M:%S",
      "%Y-%m-%d %H:%M:%S.%f",
      "%Y-%m-%d %H:%M",
      "%d-%m-%Y %H:%M:%S",
      "%d-%m-%Y %H:%M:%S.%f",
      "%d-%m-%Y %H:%M",
      "%d-%m-%y %H:%M:%S",
      "%d-%m-%y %H:%M:%S.%f",
      "%d-%m-%y %H:%M",
      "%Y-%m-%d"
    ],
    "DATE_FORMAT": "d F Y",
    "DATE_INPUT_FORMATS": [
      "%d/%m/%Y",
      "%Y/%m/%d",
      "%d-%m-%Y",
      "%Y-%m-%d",
      "%d-%m-%y",
      "%d/%m/%y"
    ],
    "DECIMAL_SEPARATOR": ",",
    "FIRST_DAY_OF_WEEK": 1,
    "MONTH_DAY_FORMAT": "j F",
    "NUMBER_GROUPING": 3,
    "SHORT_DATETIME_FORMAT": "d/m/Y H:i",
    "SHORT_DATE_FORMAT": "d/m/Y",
    "THOUSAND_SEPARATOR": ".",
    "TIME_FORMAT": "H:i",
    "TIME_INPUT_FORMATS": [
      "%H:%M:%S",
      "%H:%M:%S.%f",
      "%H:%M"
    ],
    "YEAR_MONTH_FORMAT": "F Y"
  };

    django.get_format = function(format_type) {
      const value = django.formats[format_type];
      if (typeof value === 'undefined') {
        return format_type;
      } else {
        return value;
      }
    };

    /* add to global namespace */
    globals.pluralidx = django.pluralidx;
    globals.gettext = django.gettext;
    globals.ngettext = django.ngettext;
    globals.gettext_noop = django.gettext_noop;
    globals.pgettext = django.pgettext;
    globals.npgettext = django.npgettext;
    globals.interpolate = django.interpolate;
    globals.get_format = django.get_format;

    django.jsi18n_initialized = true;
  }
};

