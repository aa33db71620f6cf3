
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
    "%(name)s (you)": "%(name)s (tu)",
    "%(name)s \u00b7 resigned": "%(name)s \u00b7 ritirato",
    "Better: ": "Meglio: ",
    "Closed": "Chiuso",
    "Finished": "Finita",
    "Good game": "Bella partita",
    "Good luck": "Buona fortuna",
    "Here %(name)s played %(played)s (%(verdict)s, expected %(value)s). ": "Qui %(name)s ha giocato %(played)s (%(verdict)s, atteso %(value)s). ",
    "Mute": "Silenzia",
    "Mute %(name)s everywhere": "Silenzia %(name)s ovunque",
    "Muted: you will not see their messages, at any table.": "Silenziato: non vedrai i suoi messaggi, a nessun tavolo.",
    "Not connected; try again in a moment.": "Non connesso; riprova tra un momento.",
    "One more?": "Un'altra?",
    "Place": "Posto",
    "Player": "Giocatore",
    "Playing": "In gioco",
    "Report": "Segnala",
    "Report this message by %(name)s": "Segnala questo messaggio di %(name)s",
    "Reported. Why? (optional)": "Segnalato. Perch\u00e9? (facoltativo)",
    "Say something\u2026": "Scrivi qualcosa\u2026",
    "Send": "Invia",
    "Sorry, I have to go": "Scusate, devo andare",
    "Thank you.": "Grazie.",
    "Thanks": "Grazie",
    "The analysis is done; reload the page to see it.": "L'analisi \u00e8 pronta; ricarica la pagina per vederla.",
    "The house": "La casa",
    "The site did not answer: try again later.": "Il sito non ha risposto: riprova pi\u00f9 tardi.",
    "This table was closed.": "Questo tavolo \u00e8 stato chiuso.",
    "Waiting for players": "In attesa di giocatori",
    "Waiting for players: %(seated)s/%(seats)s seated.": "In attesa di giocatori: %(seated)s/%(seats)s seduti.",
    "Well played": "Ben giocato",
    "Write something first.": "Scrivi prima qualcosa.",
    "You may not chat until %(until)s (%(reason)s).": "Non puoi usare la chat fino al %(until)s (%(reason)s).",
    "You may not chat until %(until)s.": "Non puoi usare la chat fino al %(until)s.",
    "blunder": "errore grave",
    "fine": "buona",
    "forced": "forzata",
    "inaccuracy": "imprecisione",
    "mistake": "errore"
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

