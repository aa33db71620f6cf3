
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
    "%(name)s (you)": "%(name)s (t\u00fa)",
    "%(name)s \u00b7 resigned": "%(name)s \u00b7 abandon\u00f3",
    "Better: ": "Mejor: ",
    "Closed": "Cerrada",
    "Finished": "Terminada",
    "Good game": "Buena partida",
    "Good luck": "Buena suerte",
    "Here %(name)s played %(played)s (%(verdict)s, expected %(value)s). ": "Aqu\u00ed %(name)s jug\u00f3 %(played)s (%(verdict)s, esperado %(value)s). ",
    "Mute": "Silenciar",
    "Mute %(name)s everywhere": "Silenciar a %(name)s en todas partes",
    "Muted: you will not see their messages, at any table.": "Silenciado: no ver\u00e1s sus mensajes en ninguna mesa.",
    "Not connected; try again in a moment.": "Sin conexi\u00f3n; int\u00e9ntalo de nuevo en un momento.",
    "One more?": "\u00bfOtra?",
    "Place": "Puesto",
    "Player": "Jugador",
    "Playing": "En juego",
    "Report": "Denunciar",
    "Report this message by %(name)s": "Denunciar este mensaje de %(name)s",
    "Reported. Why? (optional)": "Denunciado. \u00bfPor qu\u00e9? (opcional)",
    "Say something\u2026": "Di algo\u2026",
    "Send": "Enviar",
    "Sorry, I have to go": "Lo siento, tengo que irme",
    "Thank you.": "Gracias.",
    "Thanks": "Gracias",
    "The analysis is done; reload the page to see it.": "El an\u00e1lisis est\u00e1 listo; recarga la p\u00e1gina para verlo.",
    "The house": "La casa",
    "The site did not answer: try again later.": "El sitio no respondi\u00f3: int\u00e9ntalo m\u00e1s tarde.",
    "This table was closed.": "Esta mesa se ha cerrado.",
    "Waiting for players": "Esperando jugadores",
    "Waiting for players: %(seated)s/%(seats)s seated.": "Esperando jugadores: %(seated)s/%(seats)s sentados.",
    "Well played": "Bien jugado",
    "Write something first.": "Escribe algo primero.",
    "You may not chat until %(until)s (%(reason)s).": "No puedes chatear hasta el %(until)s (%(reason)s).",
    "You may not chat until %(until)s.": "No puedes chatear hasta el %(until)s.",
    "blunder": "error grave",
    "fine": "bien",
    "forced": "forzada",
    "inaccuracy": "imprecisi\u00f3n",
    "mistake": "error"
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

