# English dates as the club has always shown them (day before month, 24-hour
# clock); the other languages use Django's own formats for their locale.
DATE_FORMAT = "j F Y"
SHORT_DATE_FORMAT = "j M Y"
DATETIME_FORMAT = "j F Y, H:i"
SHORT_DATETIME_FORMAT = "j M, H:i"
TIME_FORMAT = "H:i"
FIRST_DAY_OF_WEEK = 1
