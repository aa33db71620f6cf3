
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
    "%(card)s (matched)": "%(card)s (emparejada)",
    "%(card)s, not playable": "%(card)s, no jugable",
    "%(card)s, playable": "%(card)s, jugable",
    "%(card)s, playable, key %(key)s": "%(card)s, jugable, tecla %(key)s",
    "%(count)s card": [
      "%(count)s carta",
      "%(count)s cartas"
    ],
    "%(count)s day": [
      "%(count)s d\u00eda",
      "%(count)s d\u00edas"
    ],
    "%(count)s move": [
      "%(count)s jugada",
      "%(count)s jugadas"
    ],
    "%(count)s pass": [
      "%(count)s pase",
      "%(count)s pases"
    ],
    "%(count)s second left for this move": [
      "Queda %(count)s segundo para esta jugada",
      "Quedan %(count)s segundos para esta jugada"
    ],
    "%(counter)s unread notification": [
      "%(counter)s notificaci\u00f3n sin leer",
      "%(counter)s notificaciones sin leer"
    ],
    "%(hours)s h": "%(hours)s h",
    "%(hours)s h %(minutes)s min": "%(hours)s h %(minutes)s min",
    "%(label)s: %(value)s": "%(label)s: %(value)s",
    "%(minutes)s min": "%(minutes)s min",
    "%(name)s (%(level)s)": "%(name)s (%(level)s)",
    "%(name)s (you)": "%(name)s (t\u00fa)",
    "%(name)s deals": "reparte %(name)s",
    "%(name)s drew": "%(name)s rob\u00f3",
    "%(name)s has %(left)s to move (until %(at)s)": "%(name)s tiene %(left)s para jugar (hasta el %(at)s)",
    "%(name)s has not moved for a while.": "%(name)s lleva un rato sin jugar.",
    "%(name)s holds %(card)s": "%(name)s tiene %(card)s",
    "%(name)s holds a drawn card": "%(name)s tiene una carta robada",
    "%(name)s is away until %(until)s": "%(name)s est\u00e1 ausente hasta el %(until)s",
    "%(name)s is back and plays again.": "%(name)s ha vuelto y juega de nuevo.",
    "%(name)s is deciding where the drawn card goes.": "%(name)s est\u00e1 decidiendo d\u00f3nde va la carta robada.",
    "%(name)s is left holding cards and loses.": "%(name)s se queda con cartas y pierde.",
    "%(name)s is out first and wins.": "Victoria: %(name)s, primera salida.",
    "%(name)s left the game: the house plays their seat to the end.": "%(name)s ha dejado la partida: el club juega su asiento hasta el final.",
    "%(name)s loses: left the game.": "%(name)s pierde: dej\u00f3 la partida.",
    "%(name)s loses: the last with cards.": "Derrota: %(name)s se queda con cartas hasta el final.",
    "%(name)s passed": "%(name)s pasa",
    "%(name)s played %(card)s": "%(name)s jug\u00f3 %(card)s",
    "%(name)s to move": "le toca a %(name)s",
    "%(name)s to move holding %(card)s": "le toca a %(name)s, con %(card)s en la mano",
    "%(name)s to move.": "Le toca a %(name)s.",
    "%(name)s went out and scored +10: someone else was lower.": "%(name)s cerr\u00f3 y sum\u00f3 +10: otra persona ten\u00eda menos.",
    "%(name)s went out with the lowest score: no penalty.": "%(name)s cerr\u00f3 con la puntuaci\u00f3n m\u00e1s baja: sin penalizaci\u00f3n.",
    "%(name)s went out!": "\u00a1%(name)s ha cerrado!",
    "%(name)s went out: %(count)s last turn left": [
      "%(name)s ha cerrado: queda %(count)s \u00faltimo turno",
      "%(name)s ha cerrado: quedan %(count)s \u00faltimos turnos"
    ],
    "%(name)s wins with %(score)s.": "%(name)s gana con %(score)s.",
    "%(name)s wins.": "%(name)s gana.",
    "%(name)s wins: out first.": "Victoria: %(name)s, primera salida.",
    "%(name)s \u00b7 resigned": "%(name)s \u00b7 abandon\u00f3",
    "%(name)s, to move": "%(name)s, le toca",
    "%(name)s: %(stats)s": "%(name)s: %(stats)s",
    "%(name)s: %(stats)s, to move": "%(name)s: %(stats)s, le toca",
    "%(names)s and %(last)s": "%(names)s y %(last)s",
    "%(names)s is out": [
      "%(names)s ha salido",
      "%(names)s han salido"
    ],
    "%(names)s passed": [
      "%(names)s pasa",
      "%(names)s pasan"
    ],
    "%(names)s share first place with %(score)s.": "%(names)s comparten el primer puesto con %(score)s.",
    "%(seconds)ss": "%(seconds)s s",
    "%(slot)s, key %(key)s: %(action)s": "%(slot)s, tecla %(key)s: %(action)s",
    "%(suit)s: %(low)s to %(high)s": "%(suit)s: de %(low)s a %(high)s",
    "%(suit)s: not open": "%(suit)s: sin abrir",
    "(+10 for going out without the lowest score)": "(+10 por cerrar sin la puntuaci\u00f3n m\u00e1s baja)",
    "(by the house)": "(por el club)",
    "(went out)": "(cerr\u00f3)",
    ", discarding %(card)s": ", descartando %(card)s",
    "1\u20139: swap into that slot \u00b7 X: discard it and pick a face-down card \u00b7 Esc: cancel \u00b7 arrows move": "1\u20139: cambiar en ese hueco \u00b7 X: descartarla y elegir una carta boca abajo \u00b7 Esc: cancelar \u00b7 flechas para moverse",
    "Accept the rematch": "Aceptar la revancha",
    "Better: ": "Mejor: ",
    "Cancel": "Cancelar",
    "Cards left": "Cartas restantes",
    "Cards of %(name)s: %(grid)s": "Cartas de %(name)s: %(grid)s",
    "Cards of one rank in a column score 0 when all three match.": "Las cartas del mismo valor en una columna valen 0 cuando coinciden las tres.",
    "Cards of one rank in a column score 0.": "Las cartas del mismo valor en una columna valen 0.",
    "Click a card or press 1\u20139 to turn it up \u00b7 R: ready": "Haz clic en una carta o pulsa 1\u20139 para destaparla \u00b7 R: listo",
    "Click a move, or press its number (1\u20139).": "Haz clic en una jugada o pulsa su n\u00famero (1\u20139).",
    "Click any of your cards (1\u20139) to swap the %(card)s in, or discard it and turn up a face-down card.": "Haz clic en cualquiera de tus cartas (1\u20139) para poner el %(card)s en su lugar, o desc\u00e1rtalo y destapa una carta boca abajo.",
    "Closed": "Cerrada",
    "Column match needs three of a rank": "Una columna vale 0 solo con tres cartas iguales",
    "Copied!": "\u00a1Copiado!",
    "Copy": "Copiar",
    "D: draw \u00b7 T: take the discard, then 1\u20139 \u00b7 1\u20139: turn up a face-down card \u00b7 Esc: cancel \u00b7 arrows move": "D: robar \u00b7 T: tomar el descarte y luego 1\u20139 \u00b7 1\u20139: destapar una carta boca abajo \u00b7 Esc: cancelar \u00b7 flechas para moverse",
    "Discard": "Descartes",
    "Discard it, flip a card": "Descartarla, destapar una carta",
    "Discard pile: %(card)s": "Pila de descartes: %(card)s",
    "Discard pile: %(card)s: discard your drawn card here, then pick a face-down card to turn up (key X)": "Pila de descartes: %(card)s: descarta aqu\u00ed la carta robada y luego elige una carta boca abajo para destaparla (tecla X)",
    "Discard pile: %(card)s: take it, then pick the slot for it (key T)": "Pila de descartes: %(card)s: t\u00f3mala y luego elige su hueco (tecla T)",
    "Dismiss": "Cerrar",
    "Draw": "Robar",
    "Draw from the stock (key D)": "Robar del mazo (tecla D)",
    "Draw from the stock, take the discard, or click a face-down card to turn it up (1\u20139).": "Roba del mazo, toma el descarte o haz clic en una carta boca abajo para destaparla (1\u20139).",
    "Drawn by %(name)s": "Robada por %(name)s",
    "Empty seat": "Asiento libre",
    "Every grid": "Todas las cuadr\u00edculas",
    "Every grid is shown as it was; the cards still face down at that moment are dimmed and hatched.": "Cada cuadr\u00edcula se muestra como estaba; las cartas a\u00fan boca abajo en ese momento aparecen atenuadas y rayadas.",
    "Every hand": "Todas las manos",
    "Every hand is shown as it was; the cards the player to move could play are outlined.": "Cada mano se muestra como estaba; las cartas que pod\u00eda jugar quien ten\u00eda el turno est\u00e1n resaltadas.",
    "Everyone turns up to two cards, then says ready.": "Cada cual destapa hasta dos cartas y luego pulsa Listo.",
    "Finished": "Terminada",
    "First place shared: %(names)s.": "Primer puesto compartido: %(names)s.",
    "Game over. %(summary)s": "Partida terminada. %(summary)s",
    "Good game": "Buena partida",
    "Good luck": "Buena suerte",
    "Here %(name)s played %(played)s (%(verdict)s, expected %(value)s). ": "Aqu\u00ed %(name)s jug\u00f3 %(played)s (%(verdict)s, esperado %(value)s). ",
    "Holding a drawn card": "Tiene una carta robada",
    "House move for you (%(why)s): %(move)s": "Jugada del club por ti (%(why)s): %(move)s",
    "Last turn: %(names)s.": [
      "\u00daltimo turno: %(names)s.",
      "\u00daltimos turnos: %(names)s."
    ],
    "Let the house play for %(name)s": "Dejar que el club juegue por %(name)s",
    "Lowest total wins. out: went out that round \u00b7 +10: went out without the lowest round score (included).": "Gana el total m\u00e1s bajo. out: cerr\u00f3 esa ronda \u00b7 +10: cerr\u00f3 sin la puntuaci\u00f3n m\u00e1s baja de la ronda (incluido).",
    "Match over after %(count)s round": [
      "Partida terminada tras %(count)s ronda",
      "Partida terminada tras %(count)s rondas"
    ],
    "Move %(index)s of %(last)s": "Jugada %(index)s de %(last)s",
    "Mute": "Silenciar",
    "Mute %(name)s everywhere": "Silenciar a %(name)s en todas partes",
    "Muted: you will not see their messages, at any table.": "Silenciado: no ver\u00e1s sus mensajes en ninguna mesa.",
    "Needs at least %(counter)s player.": [
      "Hace falta al menos %(counter)s jugador.",
      "Hacen falta al menos %(counter)s jugadores."
    ],
    "Not connected; try again in a moment.": "Sin conexi\u00f3n; int\u00e9ntalo de nuevo en un momento.",
    "Nothing for you to play now.": "Por ahora no tienes nada que jugar.",
    "Notifications are blocked for the club in this browser's settings: allow them there first.": "Las notificaciones del club est\u00e1n bloqueadas en los ajustes de este navegador: perm\u00edtelas all\u00ed primero.",
    "Now pick a face-down card to turn up; the %(card)s is discarded.": "Ahora elige una carta boca abajo para destaparla; el %(card)s se descarta.",
    "Now pick the slot for the %(card)s (1\u20139).": "Ahora elige el hueco para el %(card)s (1\u20139).",
    "Offer a rematch": "Proponer la revancha",
    "One more?": "\u00bfOtra?",
    "Out %(place)s": "Sali\u00f3 %(place)s",
    "Out order: %(order)s \u00b7 Loser: %(loser)s": "Orden de salida: %(order)s \u00b7 Pierde: %(loser)s",
    "Passes": "Pases",
    "Penalties: %(list)s.": "Penalizaciones: %(list)s.",
    "Place": "Puesto",
    "Play %(move)s": "Jugar %(move)s",
    "Play %(move)s, key %(key)s": "Jugar %(move)s, tecla %(key)s",
    "Player": "Jugador",
    "Playing": "En juego",
    "Playing your card\u2026": "Jugando tu carta\u2026",
    "Points": "Puntos",
    "Push is off for this device.": "Las notificaciones push est\u00e1n desactivadas en este dispositivo.",
    "Push is on for this device.": "Las notificaciones push est\u00e1n activadas en este dispositivo.",
    "R%(number)s": "R%(number)s",
    "Rating in this game": "Puntuaci\u00f3n en este juego",
    "Rating in this game (provisional)": "Puntuaci\u00f3n en este juego (provisional)",
    "Ready": "Listo",
    "Ready: start playing (key R)": "Listo: empezar a jugar (tecla R)",
    "Remove": "Quitar",
    "Report": "Denunciar",
    "Report this message by %(name)s": "Denunciar este mensaje de %(name)s",
    "Reported. Why? (optional)": "Denunciado. \u00bfPor qu\u00e9? (opcional)",
    "Round %(round)s": "Ronda %(round)s",
    "Round %(round)s of %(rounds)s": "Ronda %(round)s de %(rounds)s",
    "Round %(round)s scored (the last round):": "Puntuaci\u00f3n de la ronda %(round)s (la \u00faltima):",
    "Round %(round)s scored:": "Puntuaci\u00f3n de la ronda %(round)s:",
    "Round %(round)s scored: %(name)s went out (+10: not the lowest).": "Ronda %(round)s puntuada: %(name)s cerr\u00f3 (+10: no era la m\u00e1s baja).",
    "Round %(round)s scored: %(name)s went out.": "Ronda %(round)s puntuada: %(name)s cerr\u00f3.",
    "Round %(round)s: every card turned up": "Ronda %(round)s: todas las cartas destapadas",
    "Round %(round)s: the last grids": "Ronda %(round)s: las \u00faltimas cuadr\u00edculas",
    "Round scores and totals": "Puntuaciones de las rondas y totales",
    "Row %(row)s, column %(column)s, %(card)s": "Fila %(row)s, columna %(column)s, %(card)s",
    "Say something\u2026": "Di algo\u2026",
    "Scores": "Puntuaciones",
    "Seat %(number)s": "Asiento %(number)s",
    "See the scores": "Ver las puntuaciones",
    "Select and copy": "Selecciona y copia",
    "Send": "Enviar",
    "Sending your move\u2026": "Enviando tu jugada\u2026",
    "Sorry, I have to go": "Lo siento, tengo que irme",
    "Stock": "Mazo",
    "Stock, %(cards)s": "Mazo, %(cards)s",
    "Stock, %(cards)s: draw the top card (key D)": "Mazo, %(cards)s: roba la carta de arriba (tecla D)",
    "Swap into a slot": "Cambiar por una carta",
    "Take %(card)s": "Tomar %(card)s",
    "Take %(card)s from the discard, then pick a slot (key T)": "Tomar %(card)s del descarte y luego elegir un hueco (tecla T)",
    "Take it": "Tomarla",
    "Tap up to one more of your face-down cards to turn it up (keys 1\u20139), then press Ready.": "Toca como mucho una m\u00e1s de tus cartas boca abajo para destaparla (teclas 1\u20139) y luego pulsa Listo.",
    "Tap up to two of your face-down cards to turn them up (keys 1\u20139), then press Ready.": "Toca hasta dos de tus cartas boca abajo para destaparlas (teclas 1\u20139) y luego pulsa Listo.",
    "Thank you.": "Gracias.",
    "Thanks": "Gracias",
    "The analysis is done; reload the page to see it.": "El an\u00e1lisis est\u00e1 listo; recarga la p\u00e1gina para verlo.",
    "The club could not save this. Try again later.": "El club no ha podido guardarlo. Int\u00e9ntalo m\u00e1s tarde.",
    "The deal": "El reparto",
    "The deal: %(name)s holds 9\u2666 and opens.": "El reparto: %(name)s tiene el 9\u2666 y abre.",
    "The game": "La partida",
    "The house": "El club",
    "The house is playing for you: you were idle, so the others handed your seat over.": "El club est\u00e1 jugando por ti: llevabas un rato sin jugar, as\u00ed que los dem\u00e1s cedieron tu asiento.",
    "The house now plays for %(name)s, who was idle.": "Ahora el club juega por %(name)s: llevaba un rato sin jugar.",
    "The house now plays for %(name)s: their time ran out %(count)s time in a row.": [
      "Ahora el club juega por %(name)s: se le acab\u00f3 el tiempo %(count)s vez seguida.",
      "Ahora el club juega por %(name)s: se le acab\u00f3 el tiempo %(count)s veces seguidas."
    ],
    "The match is over: %(names)s share the lowest total.": "La partida ha terminado: %(names)s comparten el total m\u00e1s bajo.",
    "The match is over: %(names)s wins with the lowest total.": "La partida ha terminado: %(names)s gana con el total m\u00e1s bajo.",
    "The others can now hand your seat to the house: play to keep it.": "Ahora los dem\u00e1s pueden ceder tu asiento al club: juega para conservarlo.",
    "The others handed your idle seat to the house.": "Los dem\u00e1s han cedido al club tu asiento inactivo.",
    "The replay could not be loaded.": "No se pudo cargar la repetici\u00f3n.",
    "The replay could not be loaded: the site did not answer. Try again later.": "No se pudo cargar la repetici\u00f3n: el sitio no respondi\u00f3. Int\u00e9ntalo m\u00e1s tarde.",
    "The round ends.": "La ronda termina.",
    "The site did not answer: try again later.": "El sitio no respondi\u00f3: int\u00e9ntalo m\u00e1s tarde.",
    "The stock and the discard pile": "El mazo y la pila de descartes",
    "This browser cannot receive push notifications from the club.": "Este navegador no puede recibir notificaciones push del club.",
    "This game has no replay board yet.": "Este juego a\u00fan no tiene tablero de repetici\u00f3n.",
    "This is your last turn (then %(names)s).": "Este es tu \u00faltimo turno (luego %(names)s).",
    "This is your last turn.": "Este es tu \u00faltimo turno.",
    "This table was closed.": "Esta mesa se ha cerrado.",
    "Total": "Total",
    "Total %(score)s": "Total %(score)s",
    "Turn sound: off": "Sonido de turno: desactivado",
    "Turn sound: on": "Sonido de turno: activado",
    "Turn up to two of your cards, then press Ready.": "Destapa hasta dos de tus cartas y luego pulsa Listo.",
    "Waiting for %(name)s. In %(time)s the players can hand their seat to the house.": "Esperando a %(name)s. En %(time)s los jugadores podr\u00e1n ceder su asiento al club.",
    "Waiting for %(names)s to be ready.": "Esperando la confirmaci\u00f3n de: %(names)s.",
    "Waiting for players": "Esperando jugadores",
    "Waiting for players: %(seated)s/%(seats)s seated.": "Esperando jugadores: %(seated)s/%(seats)s sentados.",
    "Waiting for the others.": "Esperando a los dem\u00e1s.",
    "Waiting for the others\u2026": "Esperando a los dem\u00e1s\u2026",
    "Well played": "Bien jugado",
    "Went out": "Cerr\u00f3",
    "Went out, not the lowest: +10 included": "Cerr\u00f3 sin la m\u00e1s baja: +10 incluido",
    "Write something first.": "Escribe algo primero.",
    "You": "T\u00fa",
    "You are away until %(until)s": "Est\u00e1s ausente hasta el %(until)s",
    "You are ready. Play starts when everyone is.": "Ya has confirmado. El juego empieza cuando confirme todo el mundo.",
    "You cannot follow this table live.": "No puedes seguir esta mesa en directo.",
    "You drew": "Has robado",
    "You drew %(card)s": "Has robado %(card)s",
    "You drew the %(card)s: swap it in, or discard it and turn up a card.": "Has robado el %(card)s: c\u00e1mbialo por una carta, o desc\u00e1rtalo y destapa una carta.",
    "You have %(left)s to move (until %(at)s)": "Tienes %(left)s para jugar (hasta el %(at)s)",
    "You left this game.": "Has dejado esta partida.",
    "You left this game. The house plays your seat to the end.": "Has dejado esta partida. El club juega tu asiento hasta el final.",
    "You lose this one: the last with cards.": "Esta la pierdes: eres el \u00faltimo con cartas.",
    "You lose this one: you left the game.": "Esta la pierdes: dejaste la partida.",
    "You may not chat until %(until)s (%(reason)s).": "No puedes chatear hasta el %(until)s (%(reason)s).",
    "You may not chat until %(until)s.": "No puedes chatear hasta el %(until)s.",
    "You turned up two cards. Press Ready when you are done.": "Has destapado dos cartas. Pulsa Listo cuando termines.",
    "You win with %(score)s!": "\u00a1Ganas con %(score)s!",
    "You win!": "\u00a1Ganas!",
    "You win: out first!": "Has ganado: has salido antes que nadie.",
    "Your cards": "Tus cartas",
    "Your cards: your turn": "Tus cartas: te toca",
    "Your hand": "Tu mano",
    "Your hand is empty: you are out.": "Tu mano est\u00e1 vac\u00eda: has salido.",
    "Your hand: your turn": "Tu mano: te toca",
    "Your last turn: draw, take the %(card)s, or turn up a card.": "Tu \u00faltimo turno: roba, toma el %(card)s o destapa una carta.",
    "Your last turn: draw, take the discard, or turn up a card.": "Tu \u00faltimo turno: roba, toma el descarte o destapa una carta.",
    "Your time ran out %(count)s time in a row: the house plays your seat to the end of this game.": [
      "Se te acab\u00f3 el tiempo %(count)s vez seguida: el club juega por ti hasta el final de esta partida.",
      "Se te acab\u00f3 el tiempo %(count)s veces seguidas: el club juega por ti hasta el final de esta partida."
    ],
    "Your turn": "Te toca",
    "Your turn. In %(time)s the others can hand your seat to the house.": "Te toca. En %(time)s los dem\u00e1s podr\u00e1n ceder tu asiento al club.",
    "Your turn: choose a move.": "Te toca: elige una jugada.",
    "Your turn: draw, take the %(card)s, or turn up a card.": "Te toca: roba, toma el %(card)s o destapa una carta.",
    "Your turn: draw, take the discard, or turn up a card.": "Te toca: roba, toma el descarte o destapa una carta.",
    "Your turn: play a lifted card.": "Te toca: juega una carta levantada.",
    "a day and a time of day, in a sentence\u0004%(day)s, %(time)s": "%(day)s, %(time)s",
    "away": "ausente",
    "blunder": "error grave",
    "bot": "bot",
    "bot level label\u0004heuristic bot": "bot heur\u00edstico",
    "bot level label\u0004random bot": "bot aleatorio",
    "bot level label\u0004search bot": "bot de b\u00fasqueda",
    "card %(n)s: %(card)s": "carta %(n)s: %(card)s",
    "card %(n)s: %(card)s, face down": "carta %(n)s: %(card)s, boca abajo",
    "card name\u0004%(rank)s of %(suit)s": "%(rank)s de %(suit)s",
    "choosing": "eligiendo",
    "discard pile: %(card)s": "pila de descartes: %(card)s",
    "discard the drawn card and flip this one": "descartar la carta robada y destapar esta",
    "discarded": "descart\u00f3",
    "discarded %(card)s and turned up card %(n)s: %(old)s": "descart\u00f3 %(card)s y destap\u00f3 la carta %(n)s: %(old)s",
    "discarded %(card)s, turned up card %(n)s": "descart\u00f3 %(card)s, destap\u00f3 la carta %(n)s",
    "discarded it, turned up card %(n)s": "la descart\u00f3, destap\u00f3 la carta %(n)s",
    "drew": "rob\u00f3",
    "drew %(card)s": "rob\u00f3 %(card)s",
    "drew %(card)s from the stock": "rob\u00f3 %(card)s del mazo",
    "drew a card": "rob\u00f3 una carta",
    "empty": "vac\u00eda",
    "everyone turns up two cards (%(ready)s of %(players)s ready).": "todos destapan dos cartas (han confirmado %(ready)s de %(players)s).",
    "face down": "boca abajo",
    "fine": "bien",
    "flip it": "destaparla",
    "forced": "forzada",
    "holding a card": "tiene una carta",
    "holding a drawn card": "tiene una carta robada",
    "host": "anfitri\u00f3n",
    "house bot: always in": "bot del club: siempre acepta",
    "in": "acepta",
    "inaccuracy": "imprecisi\u00f3n",
    "is ready": "ha confirmado",
    "last turn": "\u00faltimo turno",
    "left the game": "dej\u00f3 la partida",
    "mistake": "error",
    "moved (hidden until revealed)": "jug\u00f3 (oculto hasta que se revele)",
    "no": "no",
    "no cards left": "sin cartas",
    "nobody": "nadie",
    "not yet": "todav\u00eda no",
    "of suit\u0004clubs": "tr\u00e9boles",
    "of suit\u0004diamonds": "diamantes",
    "of suit\u0004hearts": "corazones",
    "of suit\u0004spades": "picas",
    "ordinal\u0004%(n)sst": [
      "%(n)s\u00ba",
      "%(n)s\u00ba"
    ],
    "out": "cerr\u00f3",
    "out: went out that round \u00b7 +10: went out without the lowest score (included). Lowest total wins.": "cerr\u00f3: cerr\u00f3 esa ronda \u00b7 +10: cerr\u00f3 sin la puntuaci\u00f3n m\u00e1s baja (incluido). Gana el total m\u00e1s bajo.",
    "passed": "pasa",
    "played %(card)s": "jug\u00f3 %(card)s",
    "played %(move)s": "jug\u00f3 %(move)s",
    "put %(card)s at card %(n)s, discarding %(old)s": "puso %(card)s en la carta %(n)s, descartando %(old)s",
    "put %(card)s from the discard here": "poner aqu\u00ed %(card)s del descarte",
    "put %(card)s in slot %(n)s": "puso %(card)s en el hueco %(n)s",
    "put %(card)s, the card you drew, here": "poner aqu\u00ed %(card)s, la carta robada",
    "put the discard here": "poner aqu\u00ed el descarte",
    "rank\u0004ace": "as",
    "rank\u0004eight": "ocho",
    "rank\u0004five": "cinco",
    "rank\u0004four": "cuatro",
    "rank\u0004jack": "jota",
    "rank\u0004king": "rey",
    "rank\u0004nine": "nueve",
    "rank\u0004queen": "dama",
    "rank\u0004seven": "siete",
    "rank\u0004six": "seis",
    "rank\u0004ten": "diez",
    "rank\u0004three": "tres",
    "rank\u0004two": "dos",
    "rank, from\u0004from the ace": "del as",
    "rank, from\u0004from the eight": "del ocho",
    "rank, from\u0004from the five": "del cinco",
    "rank, from\u0004from the four": "del cuatro",
    "rank, from\u0004from the jack": "de la jota",
    "rank, from\u0004from the king": "del rey",
    "rank, from\u0004from the nine": "del nueve",
    "rank, from\u0004from the queen": "de la dama",
    "rank, from\u0004from the seven": "del siete",
    "rank, from\u0004from the six": "del seis",
    "rank, from\u0004from the ten": "del diez",
    "rank, from\u0004from the three": "del tres",
    "rank, from\u0004from the two": "del dos",
    "rank, object\u0004the ace": "el as",
    "rank, object\u0004the eight": "el ocho",
    "rank, object\u0004the five": "el cinco",
    "rank, object\u0004the four": "el cuatro",
    "rank, object\u0004the jack": "la jota",
    "rank, object\u0004the king": "el rey",
    "rank, object\u0004the nine": "el nueve",
    "rank, object\u0004the queen": "la dama",
    "rank, object\u0004the seven": "el siete",
    "rank, object\u0004the six": "el seis",
    "rank, object\u0004the ten": "el diez",
    "rank, object\u0004the three": "el tres",
    "rank, object\u0004the two": "el dos",
    "rank, to\u0004to the ace": "al as",
    "rank, to\u0004to the eight": "al ocho",
    "rank, to\u0004to the five": "al cinco",
    "rank, to\u0004to the four": "al cuatro",
    "rank, to\u0004to the jack": "a la jota",
    "rank, to\u0004to the king": "al rey",
    "rank, to\u0004to the nine": "al nueve",
    "rank, to\u0004to the queen": "a la dama",
    "rank, to\u0004to the seven": "al siete",
    "rank, to\u0004to the six": "al seis",
    "rank, to\u0004to the ten": "al diez",
    "rank, to\u0004to the three": "al tres",
    "rank, to\u0004to the two": "al dos",
    "ready": "confirmado",
    "round %(round)s ends": "termina la ronda %(round)s",
    "row %(row)s: %(cards)s": "fila %(row)s: %(cards)s",
    "row of cards\u0004%(suit)s: %(low)s %(high)s": "%(suit)s: %(low)s %(high)s",
    "seat badge: no connection open now\u0004offline": "sin conexi\u00f3n",
    "shows %(score)s": "muestra %(score)s",
    "suit\u0004clubs": "tr\u00e9boles",
    "suit\u0004diamonds": "diamantes",
    "suit\u0004hearts": "corazones",
    "suit\u0004spades": "picas",
    "swap the drawn card in here": "poner aqu\u00ed la carta robada",
    "swapped": "cambi\u00f3",
    "swapped it into slot %(n)s": "la puso en el hueco %(n)s",
    "the stock: %(cards)s": "el mazo: %(cards)s",
    "to move": "le toca",
    "took": "tom\u00f3",
    "took %(card)s from the discard into slot %(n)s": "tom\u00f3 %(card)s del descarte para el hueco %(n)s",
    "took %(card)s from the discard pile for card %(n)s, discarding %(old)s": "tom\u00f3 %(card)s de la pila de descartes para la carta %(n)s, descartando %(old)s",
    "took the top card from the discard into slot %(n)s": "tom\u00f3 la carta de arriba del descarte para el hueco %(n)s",
    "total %(score)s": "total %(score)s",
    "turned up": "destap\u00f3",
    "turned up card %(n)s": "destap\u00f3 la carta %(n)s",
    "turned up card %(n)s: %(card)s": "destap\u00f3 la carta %(n)s: %(card)s",
    "turning up": "destapando",
    "turning up cards": "se destapan cartas",
    "went out": "cerr\u00f3",
    "went out!": "\u00a1cerr\u00f3!",
    "went out, +10 included": "cerr\u00f3, +10 incluido",
    "went out, plus 10 penalty included": "cerr\u00f3, penalizaci\u00f3n de 10 incluida",
    "yes": "s\u00ed",
    "you": "t\u00fa",
    "you are choosing": "est\u00e1s eligiendo",
    "you are holding a card": "tienes una carta en la mano",
    "you are ready": "ya has confirmado",
    "you deal": "repartes t\u00fa",
    "you discarded": "descartaste",
    "you drew": "robaste",
    "you left the game": "dejaste la partida",
    "you passed": "pasas",
    "you show %(score)s": "muestras %(score)s",
    "you swapped": "cambiaste",
    "you took": "tomaste",
    "you turned up": "destapaste",
    "you went out": "has cerrado",
    "you went out!": "\u00a1cerraste!",
    "you were away": "estabas ausente",
    "your last turn": "tu \u00faltimo turno",
    "your seat was handed to the house": "tu asiento se cedi\u00f3 al club",
    "your time ran out": "se te acab\u00f3 el tiempo"
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
    "DATETIME_FORMAT": "j \\d\\e F \\d\\e Y \\a \\l\\a\\s H:i",
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
      "%Y-%m-%d"
    ],
    "DATE_FORMAT": "j \\d\\e F \\d\\e Y",
    "DATE_INPUT_FORMATS": [
      "%d/%m/%Y",
      "%d/%m/%y",
      "%Y-%m-%d"
    ],
    "DECIMAL_SEPARATOR": ",",
    "FIRST_DAY_OF_WEEK": 1,
    "MONTH_DAY_FORMAT": "j \\d\\e F",
    "NUMBER_GROUPING": 3,
    "SHORT_DATETIME_FORMAT": "d/m/Y H:i",
    "SHORT_DATE_FORMAT": "d/m/Y",
    "THOUSAND_SEPARATOR": "\u00a0",
    "TIME_FORMAT": "H:i",
    "TIME_INPUT_FORMATS": [
      "%H:%M:%S",
      "%H:%M:%S.%f",
      "%H:%M"
    ],
    "YEAR_MONTH_FORMAT": "F \\d\\e Y"
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

