
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
    "%(name)s (you)": "%(name)s (tu)",
    "%(name)s \u00b7 resigned": "%(name)s \u00b7 a abandonat",
    "Better: ": "Mai bine: ",
    "Closed": "\u00cenchis\u0103",
    "Finished": "\u00cencheiat\u0103",
    "Good game": "Joc frumos",
    "Good luck": "Baft\u0103",
    "Here %(name)s played %(played)s (%(verdict)s, expected %(value)s). ": "Aici %(name)s a jucat %(played)s (%(verdict)s, a\u0219teptat %(value)s). ",
    "Mute": "Ignor\u0103",
    "Mute %(name)s everywhere": "Ignor\u0103-l pe %(name)s peste tot",
    "Muted: you will not see their messages, at any table.": "Ignorat: nu \u00eei ve\u021bi mai vedea mesajele, la nicio mas\u0103.",
    "Not connected; try again in a moment.": "Nu sunte\u021bi conectat; \u00eencerca\u021bi din nou peste pu\u021bin timp.",
    "One more?": "\u00cenc\u0103 una?",
    "Place": "Loc",
    "Player": "Juc\u0103tor",
    "Playing": "\u00cen joc",
    "Report": "Raporteaz\u0103",
    "Report this message by %(name)s": "Raporteaz\u0103 acest mesaj de la %(name)s",
    "Reported. Why? (optional)": "Raportat. De ce? (op\u021bional)",
    "Say something\u2026": "Spune\u021bi ceva\u2026",
    "Send": "Trimite",
    "Sorry, I have to go": "Scuze, trebuie s\u0103 plec",
    "Thank you.": "Mul\u021bumim.",
    "Thanks": "Mul\u021bumesc",
    "The analysis is done; reload the page to see it.": "Analiza este gata; re\u00eencarc\u0103 pagina pentru a o vedea.",
    "The house": "Casa",
    "The site did not answer: try again later.": "Site-ul nu a r\u0103spuns: \u00eencearc\u0103 mai t\u00e2rziu.",
    "This table was closed.": "Aceast\u0103 mas\u0103 a fost \u00eenchis\u0103.",
    "Waiting for players": "Se a\u0219teapt\u0103 juc\u0103tori",
    "Waiting for players: %(seated)s/%(seats)s seated.": "Se a\u0219teapt\u0103 juc\u0103tori: %(seated)s/%(seats)s a\u0219eza\u021bi.",
    "Well played": "Bine jucat",
    "Write something first.": "Scrie\u021bi mai \u00eent\u00e2i ceva.",
    "You may not chat until %(until)s (%(reason)s).": "Nu pute\u021bi scrie \u00een chat p\u00e2n\u0103 la %(until)s (%(reason)s).",
    "You may not chat until %(until)s.": "Nu pute\u021bi scrie \u00een chat p\u00e2n\u0103 la %(until)s.",
    "blunder": "gaf\u0103",
    "fine": "bun\u0103",
    "forced": "for\u021bat\u0103",
    "inaccuracy": "imprecizie",
    "mistake": "gre\u0219eal\u0103"
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

