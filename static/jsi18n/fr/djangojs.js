
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
    "%(name)s (you)": "%(name)s (vous)",
    "%(name)s \u00b7 resigned": "%(name)s \u00b7 a abandonn\u00e9",
    "Better: ": "Mieux : ",
    "Closed": "Ferm\u00e9e",
    "Finished": "Termin\u00e9e",
    "Good game": "Bien jou\u00e9 la partie",
    "Good luck": "Bonne chance",
    "Here %(name)s played %(played)s (%(verdict)s, expected %(value)s). ": "Ici %(name)s a jou\u00e9 %(played)s (%(verdict)s, attendu %(value)s). ",
    "Mute": "Masquer",
    "Mute %(name)s everywhere": "Masquer %(name)s partout",
    "Muted: you will not see their messages, at any table.": "Masqu\u00e9 : vous ne verrez plus ses messages, \u00e0 aucune table.",
    "Not connected; try again in a moment.": "Pas connect\u00e9 ; r\u00e9essayez dans un instant.",
    "One more?": "Une autre ?",
    "Place": "Place",
    "Player": "Joueur",
    "Playing": "En cours",
    "Report": "Signaler",
    "Report this message by %(name)s": "Signaler ce message de %(name)s",
    "Reported. Why? (optional)": "Signal\u00e9. Pourquoi ? (facultatif)",
    "Say something\u2026": "Dites quelque chose\u2026",
    "Send": "Envoyer",
    "Sorry, I have to go": "D\u00e9sol\u00e9, je dois partir",
    "Thank you.": "Merci.",
    "Thanks": "Merci",
    "The analysis is done; reload the page to see it.": "L'analyse est termin\u00e9e ; rechargez la page pour la voir.",
    "The house": "La maison",
    "The site did not answer: try again later.": "Le site n'a pas r\u00e9pondu : r\u00e9essayez plus tard.",
    "This table was closed.": "Cette table a \u00e9t\u00e9 ferm\u00e9e.",
    "Waiting for players": "En attente de joueurs",
    "Waiting for players: %(seated)s/%(seats)s seated.": "En attente de joueurs : %(seated)s/%(seats)s assis.",
    "Well played": "Bien jou\u00e9",
    "Write something first.": "\u00c9crivez d'abord quelque chose.",
    "You may not chat until %(until)s (%(reason)s).": "Vous ne pouvez pas \u00e9crire dans le chat avant le %(until)s (%(reason)s).",
    "You may not chat until %(until)s.": "Vous ne pouvez pas \u00e9crire dans le chat avant le %(until)s.",
    "blunder": "gaffe",
    "fine": "bon",
    "forced": "forc\u00e9",
    "inaccuracy": "impr\u00e9cision",
    "mistake": "erreur"
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

