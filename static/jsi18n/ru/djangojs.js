
'use strict';
{
  const globals = this;
  const django = globals.django || (globals.django = {});

  
  django.pluralidx = function(n) {
    const v = (n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);
    if (typeof v === 'boolean') {
      return v ? 1 : 0;
    } else {
      return v;
    }
  };
  

  /* gettext library */

  django.catalog = django.catalog || {};
  
  const newcatalog = {
    "%(name)s (you)": "%(name)s (\u0432\u044b)",
    "%(name)s \u00b7 resigned": "%(name)s \u00b7 \u0441\u0434\u0430\u043b\u0441\u044f",
    "Better: ": "\u041b\u0443\u0447\u0448\u0435: ",
    "Closed": "\u0417\u0430\u043a\u0440\u044b\u0442",
    "Finished": "\u041e\u043a\u043e\u043d\u0447\u0435\u043d\u0430",
    "Good game": "\u0425\u043e\u0440\u043e\u0448\u0430\u044f \u0438\u0433\u0440\u0430",
    "Good luck": "\u0423\u0434\u0430\u0447\u0438",
    "Here %(name)s played %(played)s (%(verdict)s, expected %(value)s). ": "\u0417\u0434\u0435\u0441\u044c %(name)s \u0441\u044b\u0433\u0440\u0430\u043b(\u0430) %(played)s (%(verdict)s, \u043e\u0436\u0438\u0434\u0430\u043d\u0438\u0435 %(value)s). ",
    "Mute": "\u0421\u043a\u0440\u044b\u0442\u044c",
    "Mute %(name)s everywhere": "\u0421\u043a\u0440\u044b\u0442\u044c %(name)s \u0432\u0435\u0437\u0434\u0435",
    "Muted: you will not see their messages, at any table.": "\u0421\u043a\u0440\u044b\u0442: \u0432\u044b \u043d\u0435 \u0443\u0432\u0438\u0434\u0438\u0442\u0435 \u0435\u0433\u043e \u0441\u043e\u043e\u0431\u0449\u0435\u043d\u0438\u0439 \u043d\u0438 \u0437\u0430 \u043e\u0434\u043d\u0438\u043c \u0441\u0442\u043e\u043b\u043e\u043c.",
    "Not connected; try again in a moment.": "\u041d\u0435\u0442 \u0441\u043e\u0435\u0434\u0438\u043d\u0435\u043d\u0438\u044f; \u043f\u043e\u043f\u0440\u043e\u0431\u0443\u0439\u0442\u0435 \u0447\u0435\u0440\u0435\u0437 \u043c\u0438\u043d\u0443\u0442\u0443.",
    "One more?": "\u0415\u0449\u0451 \u043e\u0434\u043d\u0443?",
    "Place": "\u041c\u0435\u0441\u0442\u043e",
    "Player": "\u0418\u0433\u0440\u043e\u043a",
    "Playing": "\u0418\u0434\u0451\u0442 \u0438\u0433\u0440\u0430",
    "Report": "\u041f\u043e\u0436\u0430\u043b\u043e\u0432\u0430\u0442\u044c\u0441\u044f",
    "Report this message by %(name)s": "\u041f\u043e\u0436\u0430\u043b\u043e\u0432\u0430\u0442\u044c\u0441\u044f \u043d\u0430 \u044d\u0442\u043e \u0441\u043e\u043e\u0431\u0449\u0435\u043d\u0438\u0435 \u043e\u0442 %(name)s",
    "Reported. Why? (optional)": "\u0416\u0430\u043b\u043e\u0431\u0430 \u043e\u0442\u043f\u0440\u0430\u0432\u043b\u0435\u043d\u0430. \u041f\u043e\u0447\u0435\u043c\u0443? (\u043d\u0435\u043e\u0431\u044f\u0437\u0430\u0442\u0435\u043b\u044c\u043d\u043e)",
    "Say something\u2026": "\u041d\u0430\u043f\u0438\u0448\u0438\u0442\u0435 \u0447\u0442\u043e-\u043d\u0438\u0431\u0443\u0434\u044c\u2026",
    "Send": "\u041e\u0442\u043f\u0440\u0430\u0432\u0438\u0442\u044c",
    "Sorry, I have to go": "\u0418\u0437\u0432\u0438\u043d\u0438\u0442\u0435, \u043c\u043d\u0435 \u043f\u043e\u0440\u0430",
    "Thank you.": "\u0421\u043f\u0430\u0441\u0438\u0431\u043e.",
    "Thanks": "\u0421\u043f\u0430\u0441\u0438\u0431\u043e",
    "The analysis is done; reload the page to see it.": "\u0420\u0430\u0437\u0431\u043e\u0440 \u0433\u043e\u0442\u043e\u0432; \u043e\u0431\u043d\u043e\u0432\u0438\u0442\u0435 \u0441\u0442\u0440\u0430\u043d\u0438\u0446\u0443, \u0447\u0442\u043e\u0431\u044b \u0443\u0432\u0438\u0434\u0435\u0442\u044c \u0435\u0433\u043e.",
    "The house": "\u041a\u043b\u0443\u0431",
    "The site did not answer: try again later.": "\u0421\u0430\u0439\u0442 \u043d\u0435 \u043e\u0442\u0432\u0435\u0442\u0438\u043b: \u043f\u043e\u043f\u0440\u043e\u0431\u0443\u0439\u0442\u0435 \u043f\u043e\u0437\u0436\u0435.",
    "This table was closed.": "\u042d\u0442\u043e\u0442 \u0441\u0442\u043e\u043b \u0437\u0430\u043a\u0440\u044b\u0442.",
    "Waiting for players": "\u0416\u0434\u0451\u043c \u0438\u0433\u0440\u043e\u043a\u043e\u0432",
    "Waiting for players: %(seated)s/%(seats)s seated.": "\u0416\u0434\u0451\u043c \u0438\u0433\u0440\u043e\u043a\u043e\u0432: \u0437\u0430 \u0441\u0442\u043e\u043b\u043e\u043c %(seated)s/%(seats)s.",
    "Well played": "\u0425\u043e\u0440\u043e\u0448\u043e \u0441\u044b\u0433\u0440\u0430\u043d\u043e",
    "Write something first.": "\u0421\u043d\u0430\u0447\u0430\u043b\u0430 \u043d\u0430\u043f\u0438\u0448\u0438\u0442\u0435 \u0447\u0442\u043e-\u043d\u0438\u0431\u0443\u0434\u044c.",
    "You may not chat until %(until)s (%(reason)s).": "\u0412\u0430\u043c \u043d\u0435\u043b\u044c\u0437\u044f \u043f\u0438\u0441\u0430\u0442\u044c \u0432 \u0447\u0430\u0442 \u0434\u043e %(until)s (%(reason)s).",
    "You may not chat until %(until)s.": "\u0412\u0430\u043c \u043d\u0435\u043b\u044c\u0437\u044f \u043f\u0438\u0441\u0430\u0442\u044c \u0432 \u0447\u0430\u0442 \u0434\u043e %(until)s.",
    "blunder": "\u0433\u0440\u0443\u0431\u0430\u044f \u043e\u0448\u0438\u0431\u043a\u0430",
    "fine": "\u0445\u043e\u0440\u043e\u0448\u043e",
    "forced": "\u0432\u044b\u043d\u0443\u0436\u0434\u0435\u043d\u043d\u044b\u0439",
    "inaccuracy": "\u043d\u0435\u0442\u043e\u0447\u043d\u043e\u0441\u0442\u044c",
    "mistake": "\u043e\u0448\u0438\u0431\u043a\u0430"
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
    "DATETIME_FORMAT": "j E Y \u0433. G:i",
    "DATETIME_INPUT_FORMATS": [
      "%d.%m.%Y %H:%M:%S",
      "%d.%m.%Y %H:%M:%S.%f",
      "%d.%m.%Y %H:%M",
      "%d.%m.%y %H:%M:%S",
      "%d.%m.%y %H:%M:%S.%f",
      "%d.%m.%y %H:%M",
      "%Y-%m-%d %H:%M:%S",
      "%Y-%m-%d %H:%M:%S.%f",
      "%Y-%m-%d %H:%M",
      "%Y-%m-%d"
    ],
    "DATE_FORMAT": "j E Y \u0433.",
    "DATE_INPUT_FORMATS": [
      "%d.%m.%Y",
      "%d.%m.%y",
      "%Y-%m-%d"
    ],
    "DECIMAL_SEPARATOR": ",",
    "FIRST_DAY_OF_WEEK": 1,
    "MONTH_DAY_FORMAT": "j F",
    "NUMBER_GROUPING": 3,
    "SHORT_DATETIME_FORMAT": "d.m.Y H:i",
    "SHORT_DATE_FORMAT": "d.m.Y",
    "THOUSAND_SEPARATOR": "\u00a0",
    "TIME_FORMAT": "G:i",
    "TIME_INPUT_FORMATS": [
      "%H:%M:%S",
      "%H:%M:%S.%f",
      "%H:%M"
    ],
    "YEAR_MONTH_FORMAT": "F Y \u0433."
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

