
'use strict';
{
  const globals = this;
  const django = globals.django || (globals.django = {});

  
  django.pluralidx = function(n) {
    const v = (n > 1);
    if (typeof v === 'boolean') {
      return v ? 1 : 0;
    } else {
      return v;
    }
  };
  

  /* gettext library */

  django.catalog = django.catalog || {};
  
  const newcatalog = {
    "%(card)s (matched)": "%(card)s (assortie)",
    "%(card)s, not playable": "%(card)s, injouable",
    "%(card)s, playable": "%(card)s, jouable",
    "%(card)s, playable, key %(key)s": "%(card)s, jouable, touche %(key)s",
    "%(count)s card": [
      "%(count)s carte",
      "%(count)s cartes"
    ],
    "%(count)s day": [
      "%(count)s jour",
      "%(count)s jours"
    ],
    "%(count)s move": [
      "%(count)s coup",
      "%(count)s coups"
    ],
    "%(count)s pass": [
      "%(count)s passe",
      "%(count)s passes"
    ],
    "%(count)s second left for this move": [
      "%(count)s seconde restante pour ce coup",
      "%(count)s secondes restantes pour ce coup"
    ],
    "%(counter)s unread notification": [
      "%(counter)s notification non lue",
      "%(counter)s notifications non lues"
    ],
    "%(hours)s h": "%(hours)s h",
    "%(hours)s h %(minutes)s min": "%(hours)s h %(minutes)s min",
    "%(label)s: %(value)s": "%(label)s : %(value)s",
    "%(minutes)s min": "%(minutes)s min",
    "%(name)s (%(level)s)": "%(name)s (%(level)s)",
    "%(name)s (you)": "%(name)s (vous)",
    "%(name)s deals": "%(name)s donne",
    "%(name)s drew": "%(name)s a pioch\u00e9",
    "%(name)s has %(left)s to move (until %(at)s)": "%(name)s a %(left)s pour jouer (jusqu'au %(at)s)",
    "%(name)s has not moved for a while.": "%(name)s n'a pas jou\u00e9 depuis un moment.",
    "%(name)s holds %(card)s": "%(name)s tient %(card)s",
    "%(name)s holds a drawn card": "%(name)s tient une carte pioch\u00e9e",
    "%(name)s is away until %(until)s": "%(name)s : absence jusqu'au %(until)s",
    "%(name)s is back and plays again.": "%(name)s est de retour au jeu.",
    "%(name)s is deciding where the drawn card goes.": "%(name)s choisit o\u00f9 placer la carte pioch\u00e9e.",
    "%(name)s is left holding cards and loses.": "%(name)s reste avec des cartes en main et perd.",
    "%(name)s is out first and wins.": "Victoire : %(name)s, premi\u00e8re sortie.",
    "%(name)s left the game: the house plays their seat to the end.": "%(name)s a quitt\u00e9 la partie : le club joue sa place jusqu'au bout.",
    "%(name)s loses: left the game.": "%(name)s perd : a quitt\u00e9 la partie.",
    "%(name)s loses: the last with cards.": "D\u00e9faite : %(name)s garde des cartes jusqu'au bout.",
    "%(name)s passed": "%(name)s passe",
    "%(name)s played %(card)s": "%(name)s a jou\u00e9 %(card)s",
    "%(name)s to move": "\u00e0 %(name)s de jouer",
    "%(name)s to move holding %(card)s": "\u00e0 %(name)s de jouer, avec %(card)s en main",
    "%(name)s to move.": "\u00c0 %(name)s de jouer.",
    "%(name)s went out and scored +10: someone else was lower.": "%(name)s a fini et a marqu\u00e9 +10 : quelqu'un d'autre avait moins.",
    "%(name)s went out with the lowest score: no penalty.": "%(name)s a fini avec le score le plus bas : pas de p\u00e9nalit\u00e9.",
    "%(name)s went out!": "%(name)s a fini !",
    "%(name)s went out: %(count)s last turn left": [
      "%(name)s a fini : il reste %(count)s dernier tour",
      "%(name)s a fini : il reste %(count)s derniers tours"
    ],
    "%(name)s wins with %(score)s.": "%(name)s gagne avec %(score)s.",
    "%(name)s wins.": "%(name)s gagne.",
    "%(name)s wins: out first.": "Victoire : %(name)s, premi\u00e8re sortie.",
    "%(name)s \u00b7 resigned": "%(name)s \u00b7 a abandonn\u00e9",
    "%(name)s, to move": "%(name)s, \u00e0 jouer",
    "%(name)s: %(stats)s": "%(name)s : %(stats)s",
    "%(name)s: %(stats)s, to move": "%(name)s : %(stats)s, \u00e0 jouer",
    "%(names)s and %(last)s": "%(names)s et %(last)s",
    "%(names)s is out": [
      "Sortie : %(names)s",
      "Sorties : %(names)s"
    ],
    "%(names)s passed": [
      "%(names)s passe",
      "%(names)s passent"
    ],
    "%(names)s share first place with %(score)s.": "%(names)s partagent la premi\u00e8re place avec %(score)s.",
    "%(seconds)ss": "%(seconds)s s",
    "%(slot)s, key %(key)s: %(action)s": "%(slot)s, touche %(key)s : %(action)s",
    "%(suit)s: %(low)s to %(high)s": "%(suit)s : de %(low)s \u00e0 %(high)s",
    "%(suit)s: not open": "%(suit)s : pas ouvert",
    "(+10 for going out without the lowest score)": "(+10 pour avoir fini sans le score le plus bas)",
    "(by the house)": "(par le club)",
    "(went out)": "(a fini)",
    ", discarding %(card)s": ", en d\u00e9faussant %(card)s",
    "1\u20139: swap into that slot \u00b7 X: discard it and pick a face-down card \u00b7 Esc: cancel \u00b7 arrows move": "1\u20139 : \u00e9changer \u00e0 cet emplacement \u00b7 X : la d\u00e9fausser et choisir une carte face cach\u00e9e \u00b7 \u00c9chap : annuler \u00b7 fl\u00e8ches pour se d\u00e9placer",
    "Accept the rematch": "Accepter la revanche",
    "Better: ": "Mieux : ",
    "Cancel": "Annuler",
    "Cards left": "Cartes restantes",
    "Cards of %(name)s: %(grid)s": "Cartes de %(name)s : %(grid)s",
    "Cards of one rank in a column score 0 when all three match.": "Les cartes de m\u00eame valeur dans une colonne valent 0 quand les trois sont identiques.",
    "Cards of one rank in a column score 0.": "Les cartes de m\u00eame valeur dans une colonne valent 0.",
    "Click a card or press 1\u20139 to turn it up \u00b7 R: ready": "Cliquez sur une carte ou tapez 1\u20139 pour la retourner \u00b7 R : valider",
    "Click a move, or press its number (1\u20139).": "Cliquez sur un coup ou tapez son num\u00e9ro (1\u20139).",
    "Click any of your cards (1\u20139) to swap the %(card)s in, or discard it and turn up a face-down card.": "Cliquez sur l'une de vos cartes (1\u20139) pour y placer le %(card)s, ou d\u00e9faussez-le et retournez une carte face cach\u00e9e.",
    "Closed": "Ferm\u00e9e",
    "Column match needs three of a rank": "Une colonne ne vaut 0 qu'avec trois cartes identiques",
    "Copied!": "Copi\u00e9 !",
    "Copy": "Copier",
    "D: draw \u00b7 T: take the discard, then 1\u20139 \u00b7 1\u20139: turn up a face-down card \u00b7 Esc: cancel \u00b7 arrows move": "D : piocher \u00b7 T : prendre la d\u00e9fausse, puis 1\u20139 \u00b7 1\u20139 : retourner une carte face cach\u00e9e \u00b7 \u00c9chap : annuler \u00b7 fl\u00e8ches pour se d\u00e9placer",
    "Discard": "D\u00e9fausse",
    "Discard it, flip a card": "La d\u00e9fausser, retourner une carte",
    "Discard pile: %(card)s": "D\u00e9fausse : %(card)s",
    "Discard pile: %(card)s: discard your drawn card here, then pick a face-down card to turn up (key X)": "D\u00e9fausse : %(card)s : d\u00e9faussez ici la carte pioch\u00e9e, puis choisissez une carte face cach\u00e9e \u00e0 retourner (touche X)",
    "Discard pile: %(card)s: take it, then pick the slot for it (key T)": "D\u00e9fausse : %(card)s : prenez-la, puis choisissez son emplacement (touche T)",
    "Dismiss": "Fermer",
    "Draw": "Piocher",
    "Draw from the stock (key D)": "Piocher (touche D)",
    "Draw from the stock, take the discard, or click a face-down card to turn it up (1\u20139).": "Piochez, prenez la d\u00e9fausse ou cliquez sur une carte face cach\u00e9e pour la retourner (1\u20139).",
    "Drawn by %(name)s": "Pioch\u00e9e par %(name)s",
    "Empty seat": "Place libre",
    "Every grid": "Toutes les grilles",
    "Every grid is shown as it was; the cards still face down at that moment are dimmed and hatched.": "Chaque grille est montr\u00e9e telle qu'elle \u00e9tait ; les cartes encore face cach\u00e9e \u00e0 ce moment sont gris\u00e9es et hachur\u00e9es.",
    "Every hand": "Toutes les mains",
    "Every hand is shown as it was; the cards the player to move could play are outlined.": "Chaque main est montr\u00e9e telle qu'elle \u00e9tait ; les cartes que le joueur au trait pouvait jouer sont entour\u00e9es.",
    "Everyone turns up to two cards, then says ready.": "Chacun retourne jusqu'\u00e0 deux cartes, puis valide.",
    "Finished": "Termin\u00e9e",
    "First place shared: %(names)s.": "Premi\u00e8re place partag\u00e9e : %(names)s.",
    "Game over. %(summary)s": "Partie termin\u00e9e. %(summary)s",
    "Good game": "Bien jou\u00e9 la partie",
    "Good luck": "Bonne chance",
    "Here %(name)s played %(played)s (%(verdict)s, expected %(value)s). ": "Ici %(name)s a jou\u00e9 %(played)s (%(verdict)s, attendu %(value)s). ",
    "Holding a drawn card": "Tient une carte pioch\u00e9e",
    "House move for you (%(why)s): %(move)s": "Coup du club pour vous (%(why)s) : %(move)s",
    "Last turn: %(names)s.": [
      "Dernier tour : %(names)s.",
      "Derniers tours : %(names)s."
    ],
    "Let the house play for %(name)s": "Laisser le club jouer pour %(name)s",
    "Lowest total wins. out: went out that round \u00b7 +10: went out without the lowest round score (included).": "Le total le plus bas gagne. out : a fini cette manche \u00b7 +10 : a fini sans le score le plus bas de la manche (inclus).",
    "Match over after %(count)s round": [
      "Partie termin\u00e9e apr\u00e8s %(count)s manche",
      "Partie termin\u00e9e apr\u00e8s %(count)s manches"
    ],
    "Move %(index)s of %(last)s": "Coup %(index)s sur %(last)s",
    "Mute": "Masquer",
    "Mute %(name)s everywhere": "Masquer %(name)s partout",
    "Muted: you will not see their messages, at any table.": "Masqu\u00e9 : vous ne verrez plus ses messages, \u00e0 aucune table.",
    "Needs at least %(counter)s player.": [
      "Il faut au moins %(counter)s joueur.",
      "Il faut au moins %(counter)s joueurs."
    ],
    "Not connected; try again in a moment.": "Pas de connexion ; r\u00e9essayez dans un instant.",
    "Nothing for you to play now.": "Rien \u00e0 jouer pour vous pour l\u2019instant.",
    "Notifications are blocked for the club in this browser's settings: allow them there first.": "Les notifications du club sont bloqu\u00e9es dans les r\u00e9glages de ce navigateur : autorisez-les d'abord l\u00e0.",
    "Now pick a face-down card to turn up; the %(card)s is discarded.": "Choisissez maintenant une carte face cach\u00e9e \u00e0 retourner ; le %(card)s est d\u00e9fauss\u00e9.",
    "Now pick the slot for the %(card)s (1\u20139).": "Choisissez maintenant l'emplacement du %(card)s (1\u20139).",
    "Offer a rematch": "Proposer une revanche",
    "One more?": "Une autre ?",
    "Out %(place)s": "Sortie %(place)s",
    "Out order: %(order)s \u00b7 Loser: %(loser)s": "Ordre de sortie : %(order)s \u00b7 Perdant : %(loser)s",
    "Passes": "Passes",
    "Penalties: %(list)s.": "P\u00e9nalit\u00e9s : %(list)s.",
    "Place": "Place",
    "Play %(move)s": "Jouer %(move)s",
    "Play %(move)s, key %(key)s": "Jouer %(move)s, touche %(key)s",
    "Player": "Joueur",
    "Playing": "En cours",
    "Playing your card\u2026": "Votre carte est jou\u00e9e\u2026",
    "Points": "Points",
    "Push is off for this device.": "Les notifications push sont d\u00e9sactiv\u00e9es sur cet appareil.",
    "Push is on for this device.": "Les notifications push sont activ\u00e9es sur cet appareil.",
    "R%(number)s": "M%(number)s",
    "Rating in this game": "Cote dans ce jeu",
    "Rating in this game (provisional)": "Cote dans ce jeu (provisoire)",
    "Ready": "Valider",
    "Ready: start playing (key R)": "Valider : commencer \u00e0 jouer (touche R)",
    "Remove": "Retirer",
    "Report": "Signaler",
    "Report this message by %(name)s": "Signaler ce message de %(name)s",
    "Reported. Why? (optional)": "Signal\u00e9. Pourquoi ? (facultatif)",
    "Round %(round)s": "Manche %(round)s",
    "Round %(round)s of %(rounds)s": "Manche %(round)s sur %(rounds)s",
    "Round %(round)s scored (the last round):": "Manche %(round)s compt\u00e9e (la derni\u00e8re) :",
    "Round %(round)s scored:": "Manche %(round)s compt\u00e9e :",
    "Round %(round)s scored: %(name)s went out (+10: not the lowest).": "Manche %(round)s compt\u00e9e : %(name)s a fini (+10 : pas le plus bas).",
    "Round %(round)s scored: %(name)s went out.": "Manche %(round)s compt\u00e9e : %(name)s a fini.",
    "Round %(round)s: every card turned up": "Manche %(round)s : toutes les cartes retourn\u00e9es",
    "Round %(round)s: the last grids": "Manche %(round)s : les derni\u00e8res grilles",
    "Round scores and totals": "Scores des manches et totaux",
    "Row %(row)s, column %(column)s, %(card)s": "Ligne %(row)s, colonne %(column)s, %(card)s",
    "Say something\u2026": "Dites quelque chose\u2026",
    "Scores": "Scores",
    "Seat %(number)s": "Place %(number)s",
    "See the scores": "Voir les scores",
    "Select and copy": "S\u00e9lectionnez et copiez",
    "Send": "Envoyer",
    "Sending your move\u2026": "Envoi de votre coup\u2026",
    "Sorry, I have to go": "D\u00e9sol\u00e9, je dois partir",
    "Stock": "Pioche",
    "Stock, %(cards)s": "Pioche, %(cards)s",
    "Stock, %(cards)s: draw the top card (key D)": "Pioche, %(cards)s : piochez la carte du dessus (touche D)",
    "Swap into a slot": "Remplacer une carte",
    "Take %(card)s": "Prendre %(card)s",
    "Take %(card)s from the discard, then pick a slot (key T)": "Prendre %(card)s de la d\u00e9fausse, puis choisir un emplacement (touche T)",
    "Take it": "La prendre",
    "Tap up to one more of your face-down cards to turn it up (keys 1\u20139), then press Ready.": "Touchez encore au plus une de vos cartes face cach\u00e9e pour la retourner (touches 1\u20139), puis appuyez sur Valider.",
    "Tap up to two of your face-down cards to turn them up (keys 1\u20139), then press Ready.": "Touchez jusqu'\u00e0 deux de vos cartes face cach\u00e9e pour les retourner (touches 1\u20139), puis appuyez sur Valider.",
    "Thank you.": "Merci.",
    "Thanks": "Merci",
    "The analysis is done; reload the page to see it.": "L'analyse est termin\u00e9e ; rechargez la page pour la voir.",
    "The club could not save this. Try again later.": "Le club n'a pas pu l'enregistrer. R\u00e9essayez plus tard.",
    "The deal": "La donne",
    "The deal: %(name)s holds 9\u2666 and opens.": "La donne : %(name)s a le 9\u2666 et ouvre.",
    "The game": "La partie",
    "The house": "Le club",
    "The house is playing for you: you were idle, so the others handed your seat over.": "Le club joue pour vous : vous n'avez pas jou\u00e9 depuis un moment, les autres ont donc confi\u00e9 votre place au club.",
    "The house now plays for %(name)s, who was idle.": "Le club joue maintenant pour %(name)s : aucun coup depuis un moment.",
    "The house now plays for %(name)s: their time ran out %(count)s time in a row.": [
      "Le club joue d\u00e9sormais pour %(name)s : son temps s'est \u00e9coul\u00e9 %(count)s fois de suite.",
      "Le club joue d\u00e9sormais pour %(name)s : son temps s'est \u00e9coul\u00e9 %(count)s fois de suite."
    ],
    "The match is over: %(names)s share the lowest total.": "La partie est termin\u00e9e : %(names)s partagent le total le plus bas.",
    "The match is over: %(names)s wins with the lowest total.": "La partie est termin\u00e9e : %(names)s gagne avec le total le plus bas.",
    "The others can now hand your seat to the house: play to keep it.": "Les autres peuvent maintenant confier votre place au club : jouez pour la garder.",
    "The others handed your idle seat to the house.": "Les autres ont confi\u00e9 votre place inactive au club.",
    "The replay could not be loaded.": "La relecture n'a pas pu \u00eatre charg\u00e9e.",
    "The replay could not be loaded: the site did not answer. Try again later.": "La relecture n'a pas pu \u00eatre charg\u00e9e : le site n'a pas r\u00e9pondu. R\u00e9essayez plus tard.",
    "The round ends.": "La manche se termine.",
    "The site did not answer: try again later.": "Le site n'a pas r\u00e9pondu : r\u00e9essayez plus tard.",
    "The stock and the discard pile": "La pioche et la d\u00e9fausse",
    "This browser cannot receive push notifications from the club.": "Ce navigateur ne peut pas recevoir de notifications push du club.",
    "This game has no replay board yet.": "Ce jeu n'a pas encore de plateau de relecture.",
    "This is your last turn (then %(names)s).": "C'est votre dernier tour (puis %(names)s).",
    "This is your last turn.": "C'est votre dernier tour.",
    "This table was closed.": "Cette table a \u00e9t\u00e9 ferm\u00e9e.",
    "Total": "Total",
    "Total %(score)s": "Total %(score)s",
    "Turn sound: off": "Son du tour : d\u00e9sactiv\u00e9",
    "Turn sound: on": "Son du tour : activ\u00e9",
    "Turn up to two of your cards, then press Ready.": "Retournez jusqu'\u00e0 deux de vos cartes, puis appuyez sur Valider.",
    "Waiting for %(name)s. In %(time)s the players can hand their seat to the house.": "En attente de %(name)s. Dans %(time)s, les joueurs pourront confier sa place au club.",
    "Waiting for %(names)s to be ready.": "En attente de la validation de : %(names)s.",
    "Waiting for players": "En attente de joueurs",
    "Waiting for players: %(seated)s/%(seats)s seated.": "En attente de joueurs : %(seated)s/%(seats)s places prises.",
    "Waiting for the others.": "En attente des autres.",
    "Waiting for the others\u2026": "En attente des autres\u2026",
    "Well played": "Bien jou\u00e9",
    "Went out": "A fini",
    "Went out, not the lowest: +10 included": "A fini, sans le plus bas : +10 inclus",
    "Write something first.": "\u00c9crivez d'abord quelque chose.",
    "You": "Vous",
    "You are away until %(until)s": "Votre absence : jusqu'au %(until)s",
    "You are ready. Play starts when everyone is.": "Vous avez valid\u00e9. Le jeu commence quand tout le monde a valid\u00e9.",
    "You cannot follow this table live.": "Vous ne pouvez pas suivre cette table en direct.",
    "You drew": "Vous avez pioch\u00e9",
    "You drew %(card)s": "Vous avez pioch\u00e9 %(card)s",
    "You drew the %(card)s: swap it in, or discard it and turn up a card.": "Vous avez pioch\u00e9 le %(card)s : \u00e9changez-le, ou d\u00e9faussez-le et retournez une carte.",
    "You have %(left)s to move (until %(at)s)": "Vous avez %(left)s pour jouer (jusqu'au %(at)s)",
    "You left this game.": "Vous avez quitt\u00e9 cette partie.",
    "You left this game. The house plays your seat to the end.": "Vous avez quitt\u00e9 cette partie. Le club joue votre place jusqu'au bout.",
    "You lose this one: the last with cards.": "Vous perdez celle-ci : le dernier \u00e0 avoir des cartes.",
    "You lose this one: you left the game.": "Vous perdez celle-ci : vous avez quitt\u00e9 la partie.",
    "You may not chat until %(until)s (%(reason)s).": "Vous ne pouvez pas \u00e9crire dans le chat avant le %(until)s (%(reason)s).",
    "You may not chat until %(until)s.": "Vous ne pouvez pas \u00e9crire dans le chat avant le %(until)s.",
    "You turned up two cards. Press Ready when you are done.": "Vous avez retourn\u00e9 deux cartes. Appuyez sur Valider quand vous avez fini.",
    "You win with %(score)s!": "Vous gagnez avec %(score)s !",
    "You win!": "Vous gagnez !",
    "You win: out first!": "Vous avez gagn\u00e9 : vous avez fini vos cartes en premier !",
    "Your cards": "Vos cartes",
    "Your cards: your turn": "Vos cartes : \u00e0 vous de jouer",
    "Your hand": "Votre main",
    "Your hand is empty: you are out.": "Votre main est vide : vous avez fini.",
    "Your hand: your turn": "Votre main : \u00e0 vous de jouer",
    "Your last turn: draw, take the %(card)s, or turn up a card.": "Votre dernier tour : piochez, prenez le %(card)s ou retournez une carte.",
    "Your last turn: draw, take the discard, or turn up a card.": "Votre dernier tour : piochez, prenez la d\u00e9fausse ou retournez une carte.",
    "Your time ran out %(count)s time in a row: the house plays your seat to the end of this game.": [
      "Votre temps s'est \u00e9coul\u00e9 %(count)s fois de suite : le club joue votre place jusqu'\u00e0 la fin de cette partie.",
      "Votre temps s'est \u00e9coul\u00e9 %(count)s fois de suite : le club joue votre place jusqu'\u00e0 la fin de cette partie."
    ],
    "Your turn": "\u00c0 vous",
    "Your turn. In %(time)s the others can hand your seat to the house.": "\u00c0 vous de jouer. Dans %(time)s, les autres pourront confier votre place au club.",
    "Your turn: choose a move.": "\u00c0 vous : choisissez un coup.",
    "Your turn: draw, take the %(card)s, or turn up a card.": "\u00c0 vous : piochez, prenez le %(card)s ou retournez une carte.",
    "Your turn: draw, take the discard, or turn up a card.": "\u00c0 vous : piochez, prenez la d\u00e9fausse ou retournez une carte.",
    "Your turn: play a lifted card.": "\u00c0 vous : jouez une carte soulev\u00e9e.",
    "a day and a time of day, in a sentence\u0004%(day)s, %(time)s": "%(day)s \u00e0 %(time)s",
    "away": "absent",
    "blunder": "gaffe",
    "bot": "bot",
    "bot level label\u0004heuristic bot": "bot heuristique",
    "bot level label\u0004random bot": "bot al\u00e9atoire",
    "bot level label\u0004search bot": "bot de recherche",
    "card %(n)s: %(card)s": "carte %(n)s : %(card)s",
    "card %(n)s: %(card)s, face down": "carte %(n)s : %(card)s, face cach\u00e9e",
    "card name\u0004%(rank)s of %(suit)s": "%(rank)s de %(suit)s",
    "choosing": "choisit",
    "discard pile: %(card)s": "d\u00e9fausse : %(card)s",
    "discard the drawn card and flip this one": "d\u00e9fausser la carte pioch\u00e9e et retourner celle-ci",
    "discarded": "a d\u00e9fauss\u00e9",
    "discarded %(card)s and turned up card %(n)s: %(old)s": "a d\u00e9fauss\u00e9 %(card)s et retourn\u00e9 la carte %(n)s : %(old)s",
    "discarded %(card)s, turned up card %(n)s": "a d\u00e9fauss\u00e9 %(card)s, retourn\u00e9 la carte %(n)s",
    "discarded it, turned up card %(n)s": "l'a d\u00e9fauss\u00e9e, retourn\u00e9 la carte %(n)s",
    "drew": "a pioch\u00e9",
    "drew %(card)s": "a pioch\u00e9 %(card)s",
    "drew %(card)s from the stock": "a pioch\u00e9 %(card)s",
    "drew a card": "a pioch\u00e9 une carte",
    "empty": "vide",
    "everyone turns up two cards (%(ready)s of %(players)s ready).": "chacun retourne deux cartes (%(ready)s sur %(players)s ont valid\u00e9).",
    "face down": "face cach\u00e9e",
    "fine": "bon",
    "flip it": "la retourner",
    "forced": "forc\u00e9",
    "holding a card": "tient une carte",
    "holding a drawn card": "tient une carte pioch\u00e9e",
    "host": "h\u00f4te",
    "house bot: always in": "bot du club : toujours partant",
    "in": "partant",
    "inaccuracy": "impr\u00e9cision",
    "is ready": "a valid\u00e9",
    "last turn": "dernier tour",
    "left the game": "a quitt\u00e9 la partie",
    "mistake": "erreur",
    "moved (hidden until revealed)": "a jou\u00e9 (cach\u00e9 jusqu\u2019\u00e0 la r\u00e9v\u00e9lation)",
    "no": "non",
    "no cards left": "plus aucune carte",
    "nobody": "personne",
    "not yet": "pas encore",
    "of suit\u0004clubs": "tr\u00e8fle",
    "of suit\u0004diamonds": "carreau",
    "of suit\u0004hearts": "c\u0153ur",
    "of suit\u0004spades": "pique",
    "ordinal\u0004%(n)sst": [
      "%(n)ser",
      "%(n)se"
    ],
    "out": "fini",
    "out: went out that round \u00b7 +10: went out without the lowest score (included). Lowest total wins.": "fini : a fini cette manche \u00b7 +10 : a fini sans le score le plus bas (inclus). Le total le plus bas gagne.",
    "passed": "passe",
    "played %(card)s": "a jou\u00e9 %(card)s",
    "played %(move)s": "a jou\u00e9 %(move)s",
    "put %(card)s at card %(n)s, discarding %(old)s": "a plac\u00e9 %(card)s \u00e0 la carte %(n)s, en d\u00e9faussant %(old)s",
    "put %(card)s from the discard here": "placer ici %(card)s de la d\u00e9fausse",
    "put %(card)s in slot %(n)s": "a plac\u00e9 %(card)s \u00e0 l'emplacement %(n)s",
    "put %(card)s, the card you drew, here": "placer ici %(card)s, la carte pioch\u00e9e",
    "put the discard here": "placer ici la d\u00e9fausse",
    "rank\u0004ace": "as",
    "rank\u0004eight": "huit",
    "rank\u0004five": "cinq",
    "rank\u0004four": "quatre",
    "rank\u0004jack": "valet",
    "rank\u0004king": "roi",
    "rank\u0004nine": "neuf",
    "rank\u0004queen": "dame",
    "rank\u0004seven": "sept",
    "rank\u0004six": "six",
    "rank\u0004ten": "dix",
    "rank\u0004three": "trois",
    "rank\u0004two": "deux",
    "rank, from\u0004from the ace": "de l'as",
    "rank, from\u0004from the eight": "du huit",
    "rank, from\u0004from the five": "du cinq",
    "rank, from\u0004from the four": "du quatre",
    "rank, from\u0004from the jack": "du valet",
    "rank, from\u0004from the king": "du roi",
    "rank, from\u0004from the nine": "du neuf",
    "rank, from\u0004from the queen": "de la dame",
    "rank, from\u0004from the seven": "du sept",
    "rank, from\u0004from the six": "du six",
    "rank, from\u0004from the ten": "du dix",
    "rank, from\u0004from the three": "du trois",
    "rank, from\u0004from the two": "du deux",
    "rank, object\u0004the ace": "l'as",
    "rank, object\u0004the eight": "le huit",
    "rank, object\u0004the five": "le cinq",
    "rank, object\u0004the four": "le quatre",
    "rank, object\u0004the jack": "le valet",
    "rank, object\u0004the king": "le roi",
    "rank, object\u0004the nine": "le neuf",
    "rank, object\u0004the queen": "la dame",
    "rank, object\u0004the seven": "le sept",
    "rank, object\u0004the six": "le six",
    "rank, object\u0004the ten": "le dix",
    "rank, object\u0004the three": "le trois",
    "rank, object\u0004the two": "le deux",
    "rank, to\u0004to the ace": "\u00e0 l'as",
    "rank, to\u0004to the eight": "au huit",
    "rank, to\u0004to the five": "au cinq",
    "rank, to\u0004to the four": "au quatre",
    "rank, to\u0004to the jack": "au valet",
    "rank, to\u0004to the king": "au roi",
    "rank, to\u0004to the nine": "au neuf",
    "rank, to\u0004to the queen": "\u00e0 la dame",
    "rank, to\u0004to the seven": "au sept",
    "rank, to\u0004to the six": "au six",
    "rank, to\u0004to the ten": "au dix",
    "rank, to\u0004to the three": "au trois",
    "rank, to\u0004to the two": "au deux",
    "ready": "valid\u00e9",
    "round %(round)s ends": "fin de la manche %(round)s",
    "row %(row)s: %(cards)s": "ligne %(row)s : %(cards)s",
    "row of cards\u0004%(suit)s: %(low)s %(high)s": "%(suit)s : %(low)s %(high)s",
    "seat badge: no connection open now\u0004offline": "hors ligne",
    "shows %(score)s": "montre %(score)s",
    "suit\u0004clubs": "tr\u00e8fle",
    "suit\u0004diamonds": "carreau",
    "suit\u0004hearts": "c\u0153ur",
    "suit\u0004spades": "pique",
    "swap the drawn card in here": "placer ici la carte pioch\u00e9e",
    "swapped": "a \u00e9chang\u00e9",
    "swapped it into slot %(n)s": "l'a plac\u00e9e \u00e0 l'emplacement %(n)s",
    "the stock: %(cards)s": "la pioche : %(cards)s",
    "to move": "au trait",
    "took": "a pris",
    "took %(card)s from the discard into slot %(n)s": "a pris %(card)s de la d\u00e9fausse \u00e0 l'emplacement %(n)s",
    "took %(card)s from the discard pile for card %(n)s, discarding %(old)s": "a pris %(card)s de la d\u00e9fausse pour la carte %(n)s, en d\u00e9faussant %(old)s",
    "took the top card from the discard into slot %(n)s": "a pris la carte du dessus de la d\u00e9fausse \u00e0 l'emplacement %(n)s",
    "total %(score)s": "total %(score)s",
    "turned up": "a retourn\u00e9",
    "turned up card %(n)s": "a retourn\u00e9 la carte %(n)s",
    "turned up card %(n)s: %(card)s": "a retourn\u00e9 la carte %(n)s : %(card)s",
    "turning up": "retourne",
    "turning up cards": "on retourne les cartes",
    "went out": "a fini",
    "went out!": "a fini !",
    "went out, +10 included": "a fini, +10 inclus",
    "went out, plus 10 penalty included": "a fini, p\u00e9nalit\u00e9 de 10 incluse",
    "yes": "oui",
    "you": "vous",
    "you are choosing": "vous choisissez",
    "you are holding a card": "vous tenez une carte",
    "you are ready": "vous avez valid\u00e9",
    "you deal": "vous donnez",
    "you discarded": "vous avez d\u00e9fauss\u00e9",
    "you drew": "vous avez pioch\u00e9",
    "you left the game": "vous avez quitt\u00e9 la partie",
    "you passed": "vous passez",
    "you show %(score)s": "vous montrez %(score)s",
    "you swapped": "vous avez \u00e9chang\u00e9",
    "you took": "vous avez pris",
    "you turned up": "vous avez retourn\u00e9",
    "you went out": "vous avez fini",
    "you went out!": "vous avez fini !",
    "you were away": "vous n'\u00e9tiez pas l\u00e0",
    "your last turn": "votre dernier tour",
    "your seat was handed to the house": "votre place a \u00e9t\u00e9 confi\u00e9e au club",
    "your time ran out": "votre temps \u00e9tait \u00e9coul\u00e9"
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
    "DATETIME_FORMAT": "j F Y H:i",
    "DATETIME_INPUT_FORMATS": [
      "%d/%m/%Y %H:%M:%S",
      "%d/%m/%Y %H:%M:%S.%f",
      "%d/%m/%Y %H:%M",
      "%Y-%m-%d %H:%M:%S",
      "%Y-%m-%d %H:%M:%S.%f",
      "%Y-%m-%d %H:%M",
      "%Y-%m-%d"
    ],
    "DATE_FORMAT": "j F Y",
    "DATE_INPUT_FORMATS": [
      "%d/%m/%Y",
      "%d/%m/%y",
      "%Y-%m-%d"
    ],
    "DECIMAL_SEPARATOR": ",",
    "FIRST_DAY_OF_WEEK": 1,
    "MONTH_DAY_FORMAT": "j F",
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

