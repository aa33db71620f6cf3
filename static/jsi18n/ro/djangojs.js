
'use strict';
{
  const globals = this;
  const django = globals.django || (globals.django = {});

  
  django.pluralidx = function(n) {
    const v = (n==1 ? 0 : (n==0 || (n%100 > 0 && n%100 < 20)) ? 1 : 2);
    if (typeof v === 'boolean') {
      return v ? 1 : 0;
    } else {
      return v;
    }
  };
  

  /* gettext library */

  django.catalog = django.catalog || {};
  
  const newcatalog = {
    "%(card)s (matched)": "%(card)s (potrivit\u0103)",
    "%(card)s, not playable": "%(card)s, nu se poate juca",
    "%(card)s, playable": "%(card)s, se poate juca",
    "%(card)s, playable, key %(key)s": "%(card)s, se poate juca, tasta %(key)s",
    "%(count)s card": [
      "%(count)s carte",
      "%(count)s c\u0103r\u021bi",
      "%(count)s de c\u0103r\u021bi"
    ],
    "%(count)s day": [
      "%(count)s zi",
      "%(count)s zile",
      "%(count)s de zile"
    ],
    "%(count)s move": [
      "%(count)s mutare",
      "%(count)s mut\u0103ri",
      "%(count)s de mut\u0103ri"
    ],
    "%(count)s pass": [
      "%(count)s pas",
      "%(count)s pasuri",
      "%(count)s de pasuri"
    ],
    "%(count)s second left for this move": [
      "A mai r\u0103mas %(count)s secund\u0103 pentru aceast\u0103 mutare",
      "Au mai r\u0103mas %(count)s secunde pentru aceast\u0103 mutare",
      "Au mai r\u0103mas %(count)s de secunde pentru aceast\u0103 mutare"
    ],
    "%(counter)s unread notification": [
      "%(counter)s notificare necitit\u0103",
      "%(counter)s notific\u0103ri necitite",
      "%(counter)s de notific\u0103ri necitite"
    ],
    "%(hours)s h": "%(hours)s h",
    "%(hours)s h %(minutes)s min": "%(hours)s h %(minutes)s min",
    "%(label)s: %(value)s": "%(label)s: %(value)s",
    "%(minutes)s min": "%(minutes)s min",
    "%(name)s (%(level)s)": "%(name)s (%(level)s)",
    "%(name)s (you)": "%(name)s (tu)",
    "%(name)s deals": "\u00eemparte %(name)s",
    "%(name)s drew": "%(name)s a tras",
    "%(name)s has %(left)s to move (until %(at)s)": "%(name)s are %(left)s pentru mutare (p\u00e2n\u0103 la %(at)s)",
    "%(name)s has not moved for a while.": "%(name)s nu a mai mutat de ceva vreme.",
    "%(name)s holds %(card)s": "%(name)s \u021bine %(card)s",
    "%(name)s holds a drawn card": "%(name)s \u021bine o carte tras\u0103",
    "%(name)s is away until %(until)s": "%(name)s lipse\u0219te p\u00e2n\u0103 la %(until)s",
    "%(name)s is back and plays again.": "%(name)s s-a \u00eentors \u0219i joac\u0103 din nou.",
    "%(name)s is deciding where the drawn card goes.": "%(name)s decide unde pune cartea tras\u0103.",
    "%(name)s is left holding cards and loses.": "%(name)s r\u0103m\u00e2ne cu c\u0103r\u021bi \u0219i pierde.",
    "%(name)s is out first and wins.": "Victorie: %(name)s a terminat c\u0103r\u021bile \u00eenaintea tuturor.",
    "%(name)s left the game: the house plays their seat to the end.": "%(name)s a p\u0103r\u0103sit partida: clubul \u00eei joac\u0103 locul p\u00e2n\u0103 la final.",
    "%(name)s loses: left the game.": "%(name)s pierde: a p\u0103r\u0103sit partida.",
    "%(name)s loses: the last with cards.": "%(name)s pierde: \u00eei r\u0103m\u00e2n c\u0103r\u021bi p\u00e2n\u0103 la final.",
    "%(name)s passed": "%(name)s d\u0103 pas",
    "%(name)s played %(card)s": "%(name)s a jucat %(card)s",
    "%(name)s to move": "mut\u0103 %(name)s",
    "%(name)s to move holding %(card)s": "mut\u0103 %(name)s, cu %(card)s \u00een m\u00e2n\u0103",
    "%(name)s to move.": "Mut\u0103 %(name)s.",
    "%(name)s went out and scored +10: someone else was lower.": "%(name)s a \u00eenchis \u0219i a primit +10: altcineva avea mai pu\u021bin.",
    "%(name)s went out with the lowest score: no penalty.": "%(name)s a \u00eenchis cu cel mai mic punctaj: f\u0103r\u0103 penalizare.",
    "%(name)s went out!": "%(name)s a \u00eenchis!",
    "%(name)s went out: %(count)s last turn left": [
      "%(name)s a \u00eenchis: a mai r\u0103mas %(count)s ultim\u0103 tur\u0103",
      "%(name)s a \u00eenchis: au mai r\u0103mas %(count)s ultime ture",
      "%(name)s a \u00eenchis: au mai r\u0103mas %(count)s de ultime ture"
    ],
    "%(name)s wins with %(score)s.": "%(name)s c\u00e2\u0219tig\u0103 cu %(score)s.",
    "%(name)s wins.": "%(name)s c\u00e2\u0219tig\u0103.",
    "%(name)s wins: out first.": "Victorie: %(name)s a terminat c\u0103r\u021bile \u00eenaintea tuturor.",
    "%(name)s \u00b7 resigned": "%(name)s \u00b7 a abandonat",
    "%(name)s, to move": "%(name)s, la mutare",
    "%(name)s: %(stats)s": "%(name)s: %(stats)s",
    "%(name)s: %(stats)s, to move": "%(name)s: %(stats)s, la mutare",
    "%(names)s and %(last)s": "%(names)s \u0219i %(last)s",
    "%(names)s is out": [
      "%(names)s a ie\u0219it",
      "%(names)s au ie\u0219it",
      "%(names)s au ie\u0219it"
    ],
    "%(names)s passed": [
      "%(names)s d\u0103 pas",
      "%(names)s dau pas",
      "%(names)s dau pas"
    ],
    "%(names)s share first place with %(score)s.": "%(names)s \u00eempart primul loc cu %(score)s.",
    "%(seconds)ss": "%(seconds)s s",
    "%(slot)s, key %(key)s: %(action)s": "%(slot)s, tasta %(key)s: %(action)s",
    "%(suit)s: %(low)s to %(high)s": "%(suit)s: de la %(low)s la %(high)s",
    "%(suit)s: not open": "%(suit)s: nedeschis",
    "(+10 for going out without the lowest score)": "(+10 pentru \u00eenchidere f\u0103r\u0103 cel mai mic punctaj)",
    "(by the house)": "(de c\u0103tre club)",
    "(went out)": "(a \u00eenchis)",
    ", discarding %(card)s": ", arunc\u00e2nd %(card)s",
    "1\u20139: swap into that slot \u00b7 X: discard it and pick a face-down card \u00b7 Esc: cancel \u00b7 arrows move": "1\u20139: schimb\u0103 \u00een acea pozi\u021bie \u00b7 X: arunc-o \u0219i alege o carte cu fa\u021ba \u00een jos \u00b7 Esc: renun\u021b\u0103 \u00b7 s\u0103ge\u021bile mut\u0103",
    "Accept the rematch": "Accept\u0103 revan\u0219a",
    "Better: ": "Mai bine: ",
    "Cancel": "Renun\u021b\u0103",
    "Cards left": "C\u0103r\u021bi r\u0103mase",
    "Cards of %(name)s: %(grid)s": "%(name)s \u2014 c\u0103r\u021bi: %(grid)s",
    "Cards of one rank in a column score 0 when all three match.": "C\u0103r\u021bile de aceea\u0219i valoare pe o coloan\u0103 fac 0 c\u00e2nd se potrivesc toate trei.",
    "Cards of one rank in a column score 0.": "C\u0103r\u021bile de aceea\u0219i valoare pe o coloan\u0103 fac 0.",
    "Click a card or press 1\u20139 to turn it up \u00b7 R: ready": "Apas\u0103 pe o carte sau 1\u20139 ca s-o \u00eentorci \u00b7 R: gata",
    "Click a move, or press its number (1\u20139).": "Apas\u0103 pe o mutare sau tasta num\u0103rului ei (1\u20139).",
    "Click any of your cards (1\u20139) to swap the %(card)s in, or discard it and turn up a face-down card.": "Apas\u0103 pe oricare dintre c\u0103r\u021bile tale (1\u20139) ca s\u0103 pui %(card)s \u00een locul ei, sau arunc\u0103-l \u0219i \u00eentoarce o carte cu fa\u021ba \u00een jos.",
    "Closed": "\u00cenchis\u0103",
    "Column match needs three of a rank": "O coloan\u0103 face 0 doar cu trei c\u0103r\u021bi la fel",
    "Copied!": "Copiat!",
    "Copy": "Copiaz\u0103",
    "D: draw \u00b7 T: take the discard, then 1\u20139 \u00b7 1\u20139: turn up a face-down card \u00b7 Esc: cancel \u00b7 arrows move": "D: trage \u00b7 T: ia cartea aruncat\u0103, apoi 1\u20139 \u00b7 1\u20139: \u00eentoarce o carte cu fa\u021ba \u00een jos \u00b7 Esc: renun\u021b\u0103 \u00b7 s\u0103ge\u021bile mut\u0103",
    "Discard": "Aruncate",
    "Discard it, flip a card": "Arunc-o, \u00eentoarce o carte",
    "Discard pile: %(card)s": "Teancul de aruncate: %(card)s",
    "Discard pile: %(card)s: discard your drawn card here, then pick a face-down card to turn up (key X)": "Teancul de aruncate: %(card)s: arunc\u0103 aici cartea tras\u0103, apoi alege o carte cu fa\u021ba \u00een jos de \u00eentors (tasta X)",
    "Discard pile: %(card)s: take it, then pick the slot for it (key T)": "Teancul de aruncate: %(card)s: ia-o, apoi alege pozi\u021bia ei (tasta T)",
    "Dismiss": "\u00cenchide",
    "Draw": "Trage",
    "Draw from the stock (key D)": "Trage din pachet (tasta D)",
    "Draw from the stock, take the discard, or click a face-down card to turn it up (1\u20139).": "Trage din pachet, ia cartea aruncat\u0103 sau apas\u0103 pe o carte cu fa\u021ba \u00een jos ca s-o \u00eentorci (1\u20139).",
    "Drawn by %(name)s": "Tras\u0103 de %(name)s",
    "Empty seat": "Loc liber",
    "Every grid": "Toate grilele",
    "Every grid is shown as it was; the cards still face down at that moment are dimmed and hatched.": "Fiecare gril\u0103 apare cum era; c\u0103r\u021bile \u00eenc\u0103 cu fa\u021ba \u00een jos \u00een acel moment sunt estompate \u0219i ha\u0219urate.",
    "Every hand": "Toate m\u00e2inile",
    "Every hand is shown as it was; the cards the player to move could play are outlined.": "Fiecare m\u00e2n\u0103 apare cum era; c\u0103r\u021bile pe care le putea juca juc\u0103torul la mutare sunt conturate.",
    "Everyone turns up to two cards, then says ready.": "Fiecare \u00eentoarce p\u00e2n\u0103 la dou\u0103 c\u0103r\u021bi, apoi spune gata.",
    "Finished": "\u00cencheiat\u0103",
    "First place shared: %(names)s.": "Locul \u00eent\u00e2i \u00eemp\u0103r\u021bit: %(names)s.",
    "Game over. %(summary)s": "Partid\u0103 \u00eencheiat\u0103. %(summary)s",
    "Good game": "Joc frumos",
    "Good luck": "Baft\u0103",
    "Here %(name)s played %(played)s (%(verdict)s, expected %(value)s). ": "Aici %(name)s a jucat %(played)s (%(verdict)s, a\u0219teptat %(value)s). ",
    "Holding a drawn card": "\u021aine o carte tras\u0103",
    "House move for you (%(why)s): %(move)s": "Mutare a clubului pentru tine (%(why)s): %(move)s",
    "Last turn: %(names)s.": [
      "Ultima tur\u0103: %(names)s.",
      "Ultimele ture: %(names)s.",
      "Ultimele ture: %(names)s."
    ],
    "Let the house play for %(name)s": "Las\u0103 clubul s\u0103 joace pentru %(name)s",
    "Lowest total wins. out: went out that round \u00b7 +10: went out without the lowest round score (included).": "C\u00e2\u0219tig\u0103 totalul cel mai mic. out: a \u00eenchis runda \u00b7 +10: a \u00eenchis f\u0103r\u0103 cel mai mic punctaj al rundei (inclus).",
    "Match over after %(count)s round": [
      "Partid\u0103 \u00eencheiat\u0103 dup\u0103 %(count)s rund\u0103",
      "Partid\u0103 \u00eencheiat\u0103 dup\u0103 %(count)s runde",
      "Partid\u0103 \u00eencheiat\u0103 dup\u0103 %(count)s de runde"
    ],
    "Move %(index)s of %(last)s": "Mutarea %(index)s din %(last)s",
    "Mute": "Ignor\u0103",
    "Mute %(name)s everywhere": "Ignor\u0103 peste tot: %(name)s",
    "Muted: you will not see their messages, at any table.": "Ignorat: nu \u00eei vei mai vedea mesajele, la nicio mas\u0103.",
    "Needs at least %(counter)s player.": [
      "Trebuie cel pu\u021bin %(counter)s juc\u0103tor.",
      "Trebuie cel pu\u021bin %(counter)s juc\u0103tori.",
      "Trebuie cel pu\u021bin %(counter)s de juc\u0103tori."
    ],
    "Not connected; try again in a moment.": "Nicio conexiune cu serverul; \u00eencearc\u0103 din nou peste pu\u021bin timp.",
    "Nothing for you to play now.": "Deocamdat\u0103 nu ai nimic de jucat.",
    "Notifications are blocked for the club in this browser's settings: allow them there first.": "Notific\u0103rile clubului sunt blocate \u00een set\u0103rile acestui browser: permite-le mai \u00eent\u00e2i acolo.",
    "Now pick a face-down card to turn up; the %(card)s is discarded.": "Acum alege o carte cu fa\u021ba \u00een jos de \u00eentors; %(card)s este aruncat.",
    "Now pick the slot for the %(card)s (1\u20139).": "Acum alege pozi\u021bia pentru %(card)s (1\u20139).",
    "Offer a rematch": "Propune o revan\u0219\u0103",
    "One more?": "\u00cenc\u0103 una?",
    "Out %(place)s": "A ie\u0219it: %(place)s",
    "Out order: %(order)s \u00b7 Loser: %(loser)s": "Ordinea ie\u0219irii: %(order)s \u00b7 Pierz\u0103tor: %(loser)s",
    "Passes": "Pasuri",
    "Penalties: %(list)s.": "Penaliz\u0103ri: %(list)s.",
    "Place": "Loc",
    "Play %(move)s": "Joac\u0103 %(move)s",
    "Play %(move)s, key %(key)s": "Joac\u0103 %(move)s, tasta %(key)s",
    "Player": "Juc\u0103tor",
    "Playing": "\u00cen joc",
    "Playing your card\u2026": "Se joac\u0103 cartea ta\u2026",
    "Points": "Puncte",
    "Push is off for this device.": "Notific\u0103rile push sunt oprite pe acest dispozitiv.",
    "Push is on for this device.": "Notific\u0103rile push sunt pornite pe acest dispozitiv.",
    "R%(number)s": "R%(number)s",
    "Rating in this game": "Ratingul la acest joc",
    "Rating in this game (provisional)": "Ratingul la acest joc (provizoriu)",
    "Ready": "Gata",
    "Ready: start playing (key R)": "Gata: \u00eencepe jocul (tasta R)",
    "Remove": "Scoate",
    "Report": "Raporteaz\u0103",
    "Report this message by %(name)s": "Raporteaz\u0103 acest mesaj de la %(name)s",
    "Reported. Why? (optional)": "Raportat. De ce? (op\u021bional)",
    "Round %(round)s": "Runda %(round)s",
    "Round %(round)s of %(rounds)s": "Runda %(round)s din %(rounds)s",
    "Round %(round)s scored (the last round):": "Punctajul rundei %(round)s (ultima):",
    "Round %(round)s scored:": "Punctajul rundei %(round)s:",
    "Round %(round)s scored: %(name)s went out (+10: not the lowest).": "Runda %(round)s punctat\u0103: %(name)s a \u00eenchis (+10: nu cel mai mic).",
    "Round %(round)s scored: %(name)s went out.": "Runda %(round)s punctat\u0103: %(name)s a \u00eenchis.",
    "Round %(round)s: every card turned up": "Runda %(round)s: toate c\u0103r\u021bile \u00eentoarse",
    "Round %(round)s: the last grids": "Runda %(round)s: ultimele grile",
    "Round scores and totals": "Punctajele rundelor \u0219i totalurile",
    "Row %(row)s, column %(column)s, %(card)s": "R\u00e2ndul %(row)s, coloana %(column)s, %(card)s",
    "Say something\u2026": "Spune ceva\u2026",
    "Scores": "Punctaje",
    "Seat %(number)s": "Locul %(number)s",
    "See the scores": "Vezi punctajele",
    "Select and copy": "Selecteaz\u0103 \u0219i copiaz\u0103",
    "Send": "Trimite",
    "Sending your move\u2026": "Se trimite mutarea\u2026",
    "Sorry, I have to go": "Scuze, trebuie s\u0103 plec",
    "Stock": "Pachet",
    "Stock, %(cards)s": "Pachet, %(cards)s",
    "Stock, %(cards)s: draw the top card (key D)": "Pachet, %(cards)s: trage cartea de deasupra (tasta D)",
    "Swap into a slot": "Pune-o \u00een locul unei c\u0103r\u021bi",
    "Take %(card)s": "Ia %(card)s",
    "Take %(card)s from the discard, then pick a slot (key T)": "Ia %(card)s din cele aruncate, apoi alege o pozi\u021bie (tasta T)",
    "Take it": "Ia-o",
    "Tap up to one more of your face-down cards to turn it up (keys 1\u20139), then press Ready.": "Atinge cel mult \u00eenc\u0103 o carte cu fa\u021ba \u00een jos ca s-o \u00eentorci (tastele 1\u20139), apoi apas\u0103 Gata.",
    "Tap up to two of your face-down cards to turn them up (keys 1\u20139), then press Ready.": "Atinge p\u00e2n\u0103 la dou\u0103 c\u0103r\u021bi cu fa\u021ba \u00een jos ca s\u0103 le \u00eentorci (tastele 1\u20139), apoi apas\u0103 Gata.",
    "Thank you.": "Mul\u021bumim.",
    "Thanks": "Mul\u021bumesc",
    "The analysis is done; reload the page to see it.": "Analiza este gata; re\u00eencarc\u0103 pagina pentru a o vedea.",
    "The club could not save this. Try again later.": "Clubul nu a putut salva asta. \u00cencearc\u0103 mai t\u00e2rziu.",
    "The deal": "\u00cemp\u0103r\u021birea",
    "The deal: %(name)s holds 9\u2666 and opens.": "\u00cemp\u0103r\u021birea: %(name)s are 9\u2666 \u0219i deschide.",
    "The game": "Jocul",
    "The house": "Clubul",
    "The house is playing for you: you were idle, so the others handed your seat over.": "Clubul joac\u0103 pentru tine: nu ai mutat de ceva vreme, a\u0219a c\u0103 ceilal\u021bi \u021bi-au predat locul.",
    "The house now plays for %(name)s, who was idle.": "Acum clubul joac\u0103 pentru %(name)s: nicio mutare de ceva vreme.",
    "The house now plays for %(name)s: their time ran out %(count)s time in a row.": [
      "Acum clubul joac\u0103 pentru %(name)s: timpul a expirat la %(count)s mutare la r\u00e2nd.",
      "Acum clubul joac\u0103 pentru %(name)s: timpul a expirat la %(count)s mut\u0103ri la r\u00e2nd.",
      "Acum clubul joac\u0103 pentru %(name)s: timpul a expirat la %(count)s de mut\u0103ri la r\u00e2nd."
    ],
    "The match is over: %(names)s share the lowest total.": "Partida s-a \u00eencheiat: %(names)s au \u00eempreun\u0103 cel mai mic total.",
    "The match is over: %(names)s wins with the lowest total.": "Partida s-a \u00eencheiat: %(names)s c\u00e2\u0219tig\u0103 cu cel mai mic total.",
    "The others can now hand your seat to the house: play to keep it.": "Acum ceilal\u021bi \u00ee\u021bi pot preda locul clubului: joac\u0103 s\u0103-l p\u0103strezi.",
    "The others handed your idle seat to the house.": "Ceilal\u021bi au predat clubului locul t\u0103u inactiv.",
    "The replay could not be loaded.": "Reluarea nu a putut fi \u00eenc\u0103rcat\u0103.",
    "The replay could not be loaded: the site did not answer. Try again later.": "Reluarea nu a putut fi \u00eenc\u0103rcat\u0103: site-ul nu a r\u0103spuns. \u00cencearc\u0103 mai t\u00e2rziu.",
    "The round ends.": "Runda se termin\u0103.",
    "The site did not answer: try again later.": "Site-ul nu a r\u0103spuns: \u00eencearc\u0103 mai t\u00e2rziu.",
    "The stock and the discard pile": "Pachetul \u0219i teancul de aruncate",
    "This browser cannot receive push notifications from the club.": "Acest browser nu poate primi notific\u0103ri push de la club.",
    "This game has no replay board yet.": "Acest joc nu are \u00eenc\u0103 o tabl\u0103 de reluare.",
    "This is your last turn (then %(names)s).": "Aceasta e ultima ta tur\u0103 (apoi %(names)s).",
    "This is your last turn.": "Aceasta e ultima ta tur\u0103.",
    "This table was closed.": "Aceast\u0103 mas\u0103 a fost \u00eenchis\u0103.",
    "Total": "Total",
    "Total %(score)s": "Total %(score)s",
    "Turn sound: off": "Sunet c\u00e2nd e r\u00e2ndul t\u0103u: oprit",
    "Turn sound: on": "Sunet c\u00e2nd e r\u00e2ndul t\u0103u: pornit",
    "Turn up to two of your cards, then press Ready.": "\u00centoarce p\u00e2n\u0103 la dou\u0103 dintre c\u0103r\u021bile tale, apoi apas\u0103 Gata.",
    "Waiting for %(name)s. In %(time)s the players can hand their seat to the house.": "Se a\u0219teapt\u0103 %(name)s. \u00cen %(time)s juc\u0103torii \u00eei vor putea preda locul clubului.",
    "Waiting for %(names)s to be ready.": "Se a\u0219teapt\u0103 ca %(names)s s\u0103 fie gata.",
    "Waiting for players": "Se a\u0219teapt\u0103 juc\u0103tori",
    "Waiting for players: %(seated)s/%(seats)s seated.": "Se a\u0219teapt\u0103 juc\u0103tori: %(seated)s/%(seats)s a\u0219eza\u021bi.",
    "Waiting for the others.": "Se a\u0219teapt\u0103 ceilal\u021bi.",
    "Waiting for the others\u2026": "Se a\u0219teapt\u0103 ceilal\u021bi\u2026",
    "Well played": "Bine jucat",
    "Went out": "A \u00eenchis",
    "Went out, not the lowest: +10 included": "A \u00eenchis, dar nu cu cel mai mic: +10 inclus",
    "Write something first.": "Scrie mai \u00eent\u00e2i ceva.",
    "You": "Tu",
    "You are away until %(until)s": "Lipse\u0219ti p\u00e2n\u0103 la %(until)s",
    "You are ready. Play starts when everyone is.": "E\u0219ti gata. Jocul \u00eencepe c\u00e2nd sunt to\u021bi gata.",
    "You cannot follow this table live.": "Nu po\u021bi urm\u0103ri aceast\u0103 mas\u0103 \u00een direct.",
    "You drew": "Ai tras",
    "You drew %(card)s": "Ai tras %(card)s",
    "You drew the %(card)s: swap it in, or discard it and turn up a card.": "Ai tras %(card)s: pune-l \u00een locul unei c\u0103r\u021bi sau arunc\u0103-l \u0219i \u00eentoarce o carte.",
    "You have %(left)s to move (until %(at)s)": "Ai %(left)s pentru mutare (p\u00e2n\u0103 la %(at)s)",
    "You left this game.": "Ai p\u0103r\u0103sit aceast\u0103 partid\u0103.",
    "You left this game. The house plays your seat to the end.": "Ai p\u0103r\u0103sit aceast\u0103 partid\u0103. Clubul joac\u0103 locul t\u0103u p\u00e2n\u0103 la final.",
    "You lose this one: the last with cards.": "Pe asta o pierzi: ultimul cu c\u0103r\u021bi.",
    "You lose this one: you left the game.": "Pe asta o pierzi: ai p\u0103r\u0103sit partida.",
    "You may not chat until %(until)s (%(reason)s).": "Nu po\u021bi scrie \u00een chat p\u00e2n\u0103 la %(until)s (%(reason)s).",
    "You may not chat until %(until)s.": "Nu po\u021bi scrie \u00een chat p\u00e2n\u0103 la %(until)s.",
    "You turned up two cards. Press Ready when you are done.": "Ai \u00eentors dou\u0103 c\u0103r\u021bi. Apas\u0103 Gata c\u00e2nd ai terminat.",
    "You win with %(score)s!": "C\u00e2\u0219tigi cu %(score)s!",
    "You win!": "Ai c\u00e2\u0219tigat!",
    "You win: out first!": "Ai c\u00e2\u0219tigat: ai terminat c\u0103r\u021bile \u00eenaintea tuturor!",
    "Your cards": "C\u0103r\u021bile tale",
    "Your cards: your turn": "C\u0103r\u021bile tale: e r\u00e2ndul t\u0103u",
    "Your hand": "M\u00e2na ta",
    "Your hand is empty: you are out.": "M\u00e2na ta e goal\u0103: ai ie\u0219it.",
    "Your hand: your turn": "M\u00e2na ta: e r\u00e2ndul t\u0103u",
    "Your last turn: draw, take the %(card)s, or turn up a card.": "Ultima ta tur\u0103: trage, ia %(card)s sau \u00eentoarce o carte.",
    "Your last turn: draw, take the discard, or turn up a card.": "Ultima ta tur\u0103: trage, ia cartea aruncat\u0103 sau \u00eentoarce o carte.",
    "Your time ran out %(count)s time in a row: the house plays your seat to the end of this game.": [
      "Timpul t\u0103u a expirat la %(count)s mutare la r\u00e2nd: clubul joac\u0103 \u00een locul t\u0103u p\u00e2n\u0103 la sf\u00e2r\u0219itul acestei partide.",
      "Timpul t\u0103u a expirat la %(count)s mut\u0103ri la r\u00e2nd: clubul joac\u0103 \u00een locul t\u0103u p\u00e2n\u0103 la sf\u00e2r\u0219itul acestei partide.",
      "Timpul t\u0103u a expirat la %(count)s de mut\u0103ri la r\u00e2nd: clubul joac\u0103 \u00een locul t\u0103u p\u00e2n\u0103 la sf\u00e2r\u0219itul acestei partide."
    ],
    "Your turn": "R\u00e2ndul t\u0103u",
    "Your turn. In %(time)s the others can hand your seat to the house.": "E r\u00e2ndul t\u0103u. \u00cen %(time)s ceilal\u021bi \u00ee\u021bi vor putea preda locul clubului.",
    "Your turn: choose a move.": "E r\u00e2ndul t\u0103u: alege o mutare.",
    "Your turn: draw, take the %(card)s, or turn up a card.": "E r\u00e2ndul t\u0103u: trage, ia %(card)s sau \u00eentoarce o carte.",
    "Your turn: draw, take the discard, or turn up a card.": "E r\u00e2ndul t\u0103u: trage, ia cartea aruncat\u0103 sau \u00eentoarce o carte.",
    "Your turn: play a lifted card.": "E r\u00e2ndul t\u0103u: joac\u0103 o carte ridicat\u0103.",
    "a day and a time of day, in a sentence\u0004%(day)s, %(time)s": "%(day)s, %(time)s",
    "away": "absent",
    "blunder": "gaf\u0103",
    "bot": "bot",
    "bot level label\u0004heuristic bot": "bot euristic",
    "bot level label\u0004random bot": "bot aleatoriu",
    "bot level label\u0004search bot": "bot de c\u0103utare",
    "card %(n)s: %(card)s": "cartea %(n)s: %(card)s",
    "card %(n)s: %(card)s, face down": "cartea %(n)s: %(card)s, cu fa\u021ba \u00een jos",
    "card name\u0004%(rank)s of %(suit)s": "%(rank)s de %(suit)s",
    "choosing": "alege",
    "discard pile: %(card)s": "teancul de aruncate: %(card)s",
    "discard the drawn card and flip this one": "arunc\u0103 cartea tras\u0103 \u0219i \u00eentoarce-o pe aceasta",
    "discarded": "a aruncat",
    "discarded %(card)s and turned up card %(n)s: %(old)s": "a aruncat %(card)s \u0219i a \u00eentors cartea %(n)s: %(old)s",
    "discarded %(card)s, turned up card %(n)s": "a aruncat %(card)s, a \u00eentors cartea %(n)s",
    "discarded it, turned up card %(n)s": "a aruncat-o, a \u00eentors cartea %(n)s",
    "drew": "a tras",
    "drew %(card)s": "a tras %(card)s",
    "drew %(card)s from the stock": "a tras %(card)s din pachet",
    "drew a card": "a tras o carte",
    "empty": "goal\u0103",
    "everyone turns up two cards (%(ready)s of %(players)s ready).": "to\u021bi \u00eentorc dou\u0103 c\u0103r\u021bi (%(ready)s din %(players)s gata).",
    "face down": "cu fa\u021ba \u00een jos",
    "fine": "bun\u0103",
    "flip it": "\u00eentoarce-o",
    "forced": "for\u021bat\u0103",
    "holding a card": "\u021bine o carte",
    "holding a drawn card": "\u021bine o carte tras\u0103",
    "host": "gazd\u0103",
    "house bot: always in": "bot al clubului: mereu de acord",
    "in": "de acord",
    "inaccuracy": "imprecizie",
    "is ready": "e gata",
    "last turn": "ultima tur\u0103",
    "left the game": "a p\u0103r\u0103sit partida",
    "mistake": "gre\u0219eal\u0103",
    "moved (hidden until revealed)": "a mutat (ascuns p\u00e2n\u0103 la dezv\u0103luire)",
    "no": "nu",
    "no cards left": "nicio carte r\u0103mas\u0103",
    "nobody": "nimeni",
    "not yet": "\u00eenc\u0103 nu",
    "of suit\u0004clubs": "trefl\u0103",
    "of suit\u0004diamonds": "caro",
    "of suit\u0004hearts": "cup\u0103",
    "of suit\u0004spades": "pic\u0103",
    "ordinal\u0004%(n)sst": [
      "%(n)s.",
      "%(n)s.",
      "%(n)s."
    ],
    "out": "\u00eenchis",
    "out: went out that round \u00b7 +10: went out without the lowest score (included). Lowest total wins.": "\u00eenchis: a \u00eenchis runda \u00b7 +10: a \u00eenchis f\u0103r\u0103 cel mai mic punctaj (inclus). C\u00e2\u0219tig\u0103 totalul cel mai mic.",
    "passed": "pas",
    "played %(card)s": "a jucat %(card)s",
    "played %(move)s": "a jucat %(move)s",
    "put %(card)s at card %(n)s, discarding %(old)s": "a pus %(card)s la cartea %(n)s, arunc\u00e2nd %(old)s",
    "put %(card)s from the discard here": "pune aici %(card)s din cele aruncate",
    "put %(card)s in slot %(n)s": "a pus %(card)s \u00een pozi\u021bia %(n)s",
    "put %(card)s, the card you drew, here": "pune aici %(card)s, cartea tras\u0103",
    "put the discard here": "pune aici cartea aruncat\u0103",
    "rank\u0004ace": "as",
    "rank\u0004eight": "opt",
    "rank\u0004five": "cinci",
    "rank\u0004four": "patru",
    "rank\u0004jack": "valet",
    "rank\u0004king": "rege",
    "rank\u0004nine": "nou\u0103",
    "rank\u0004queen": "dam\u0103",
    "rank\u0004seven": "\u0219apte",
    "rank\u0004six": "\u0219ase",
    "rank\u0004ten": "zece",
    "rank\u0004three": "trei",
    "rank\u0004two": "doi",
    "rank, from\u0004from the ace": "de la asul",
    "rank, from\u0004from the eight": "de la optul",
    "rank, from\u0004from the five": "de la cinciul",
    "rank, from\u0004from the four": "de la patrul",
    "rank, from\u0004from the jack": "de la valetul",
    "rank, from\u0004from the king": "de la regele",
    "rank, from\u0004from the nine": "de la nouarul",
    "rank, from\u0004from the queen": "de la dama",
    "rank, from\u0004from the seven": "de la \u0219eptarul",
    "rank, from\u0004from the six": "de la \u0219asele",
    "rank, from\u0004from the ten": "de la zecele",
    "rank, from\u0004from the three": "de la treiul",
    "rank, from\u0004from the two": "de la doiul",
    "rank, object\u0004the ace": "asul",
    "rank, object\u0004the eight": "optul",
    "rank, object\u0004the five": "cinciul",
    "rank, object\u0004the four": "patrul",
    "rank, object\u0004the jack": "valetul",
    "rank, object\u0004the king": "regele",
    "rank, object\u0004the nine": "nouarul",
    "rank, object\u0004the queen": "dama",
    "rank, object\u0004the seven": "\u0219eptarul",
    "rank, object\u0004the six": "\u0219asele",
    "rank, object\u0004the ten": "zecele",
    "rank, object\u0004the three": "treiul",
    "rank, object\u0004the two": "doiul",
    "rank, to\u0004to the ace": "p\u00e2n\u0103 la asul",
    "rank, to\u0004to the eight": "p\u00e2n\u0103 la optul",
    "rank, to\u0004to the five": "p\u00e2n\u0103 la cinciul",
    "rank, to\u0004to the four": "p\u00e2n\u0103 la patrul",
    "rank, to\u0004to the jack": "p\u00e2n\u0103 la valetul",
    "rank, to\u0004to the king": "p\u00e2n\u0103 la regele",
    "rank, to\u0004to the nine": "p\u00e2n\u0103 la nouarul",
    "rank, to\u0004to the queen": "p\u00e2n\u0103 la dama",
    "rank, to\u0004to the seven": "p\u00e2n\u0103 la \u0219eptarul",
    "rank, to\u0004to the six": "p\u00e2n\u0103 la \u0219asele",
    "rank, to\u0004to the ten": "p\u00e2n\u0103 la zecele",
    "rank, to\u0004to the three": "p\u00e2n\u0103 la treiul",
    "rank, to\u0004to the two": "p\u00e2n\u0103 la doiul",
    "ready": "gata",
    "round %(round)s ends": "se termin\u0103 runda %(round)s",
    "row %(row)s: %(cards)s": "r\u00e2ndul %(row)s: %(cards)s",
    "row of cards\u0004%(suit)s: %(low)s %(high)s": "%(suit)s: %(low)s %(high)s",
    "seat badge: no connection open now\u0004offline": "f\u0103r\u0103 conexiune",
    "shows %(score)s": "arat\u0103 %(score)s",
    "suit\u0004clubs": "trefl\u0103",
    "suit\u0004diamonds": "caro",
    "suit\u0004hearts": "cup\u0103",
    "suit\u0004spades": "pic\u0103",
    "swap the drawn card in here": "pune aici cartea tras\u0103",
    "swapped": "a schimbat",
    "swapped it into slot %(n)s": "a pus-o \u00een pozi\u021bia %(n)s",
    "the stock: %(cards)s": "pachetul: %(cards)s",
    "to move": "la mutare",
    "took": "a luat",
    "took %(card)s from the discard into slot %(n)s": "a luat %(card)s din cele aruncate \u00een pozi\u021bia %(n)s",
    "took %(card)s from the discard pile for card %(n)s, discarding %(old)s": "a luat %(card)s din cele aruncate pentru cartea %(n)s, arunc\u00e2nd %(old)s",
    "took the top card from the discard into slot %(n)s": "a luat cartea de deasupra din cele aruncate \u00een pozi\u021bia %(n)s",
    "total %(score)s": "total %(score)s",
    "turned up": "a \u00eentors",
    "turned up card %(n)s": "a \u00eentors cartea %(n)s",
    "turned up card %(n)s: %(card)s": "a \u00eentors cartea %(n)s: %(card)s",
    "turning up": "\u00eentoarce",
    "turning up cards": "se \u00eentorc c\u0103r\u021bi",
    "went out": "a \u00eenchis",
    "went out!": "a \u00eenchis!",
    "went out, +10 included": "a \u00eenchis, +10 inclus",
    "went out, plus 10 penalty included": "a \u00eenchis, penalizare de 10 inclus\u0103",
    "yes": "da",
    "you": "tu",
    "you are choosing": "alegi",
    "you are holding a card": "\u021bii o carte \u00een m\u00e2n\u0103",
    "you are ready": "e\u0219ti gata",
    "you deal": "\u00eempar\u021bi tu",
    "you discarded": "ai aruncat",
    "you drew": "ai tras",
    "you left the game": "ai p\u0103r\u0103sit partida",
    "you passed": "dai pas",
    "you show %(score)s": "ar\u0103\u021bi %(score)s",
    "you swapped": "ai schimbat",
    "you took": "ai luat",
    "you turned up": "ai \u00eentors",
    "you went out": "ai \u00eenchis",
    "you went out!": "ai \u00eenchis!",
    "you were away": "lipseai",
    "your last turn": "ultima ta tur\u0103",
    "your seat was handed to the house": "locul t\u0103u a fost predat clubului",
    "your time ran out": "\u021bi-a expirat timpul"
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
    "DATETIME_FORMAT": "j F Y, H:i",
    "DATETIME_INPUT_FORMATS": [
      "%d.%m.%Y, %H:%M",
      "%d.%m.%Y, %H:%M:%S",
      "%d.%B.%Y, %H:%M",
      "%d.%B.%Y, %H:%M:%S",
      "%Y-%m-%d %H:%M:%S",
      "%Y-%m-%d %H:%M:%S.%f",
      "%Y-%m-%d %H:%M",
      "%Y-%m-%d"
    ],
    "DATE_FORMAT": "j F Y",
    "DATE_INPUT_FORMATS": [
      "%d.%m.%Y",
      "%d.%b.%Y",
      "%d %B %Y",
      "%A, %d %B %Y",
      "%Y-%m-%d"
    ],
    "DECIMAL_SEPARATOR": ",",
    "FIRST_DAY_OF_WEEK": 1,
    "MONTH_DAY_FORMAT": "j F",
    "NUMBER_GROUPING": 3,
    "SHORT_DATETIME_FORMAT": "d.m.Y, H:i",
    "SHORT_DATE_FORMAT": "d.m.Y",
    "THOUSAND_SEPARATOR": ".",
    "TIME_FORMAT": "H:i",
    "TIME_INPUT_FORMATS": [
      "%H:%M",
      "%H:%M:%S",
      "%H:%M:%S.%f"
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

