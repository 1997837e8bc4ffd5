"""The must-keep words of the European languages agents are run in, for `daemon.text.meaning_words`.

Russian, Ukrainian, German, French, Spanish, Italian, Portuguese, Polish, Dutch and Greek:
negations, before/after, more/less, today/tomorrow/yesterday, weekdays and months (with the
inflected forms of Slavic and Greek), number words from two to nineteen, the tens and some larger ones.
Forms are listed, not cut to a stem: a stem also matches other words (Polish środ- is
"Wednesday" and "means", Russian март- is "March" and Мартин). Each form is matched as a
whole word, casefolded (`lexicon` casefolds these lists, so ß, final ς and capitals need no
second spelling); a French or Italian elided word is read by its part after the apostrophe
(d'août is août), and n' is a negation (n'importe, "any", aside).

Left out on purpose, because they are as often something else: words for "one" (German
ein/eine, French un/une, Spanish un/una/uno, Italian uno/una, Greek ένα/μια are also "a";
Russian один, Polish jeden also "alone"), so a merge rewriting "a report" as "the report"
is not a changed number; Spanish dos (Portuguese "of the"), once (English "once"), doce
(Portuguese "sweet"), Portuguese doze (English "doze"), French onze (Dutch "our"; after
"et" it is eleven: soixante et onze), seize (English "seize"), cent (English "cent"), Italian due
(English "due"), sei (German "be", Italian "you are"), Russian семью ("family"); "to",
"until", "for" words that also mean before/after (до, voor, na, po, nach, vor); German noch
("still"), French hier (German and Dutch "here"), Italian né (French "born"), mais
(Portuguese "more", French "but"); Polish sto (Italian "I am"), nic (English NIC); Russian среда and its forms (as often "environment" as "Wednesday") and the
Portuguese weekdays without "-feira" (segunda is also "second"). Italian mai is "never"
and French and German "May": it is both tokens (with a capital inside a sentence, as a name
or a German month, only May: `meaning._concord_as_name`). Italian ne ("of it") is read as the French
negation ne: a merge dropping it is refused, the safe side.
"""

from __future__ import annotations


def _words(text: str) -> list[str]:
    return text.split()


def _inflected(stems: str, endings: str) -> str:
    """Every `stem+ending`; an ending `-` is the bare stem."""
    return " ".join(s + e.strip("-") for s in stems.split() for e in endings.split())


# Lines in the format of `meaning_words.LEXICON_TEXT`. Most of these languages repeat a
# negation through the clause (negative concord: "не пьёт ни чай, ни кофе", "ne … jamais",
# "nie pije ani kawy"): a `concord` word (ни, pas, jamais, nunca, nada, ani, ούτε …) is a
# negation only in a clause without a plain one (не, ne, no, nie, δεν …), so joining "не пьёт
# чай" and "не пьёт кофе" into "не пьёт ни чай, ни кофе" adds none, while "Nunca bebe café"
# still has one. German and Dutch do not repeat it; their words, and every "without", count.
EUROPEAN_LEXICON_TEXT = f"""
negation=not: не нет нельзя немає нема без ne non sans no sin não nao sem senza nie bez δεν μην μη όχι οχι χωρίς
negation=not: nicht nichts kein keine keinen keinem keiner keines keinerlei keinesfalls keineswegs niemand niemanden niemandem nirgends nirgendwo weder ohne nein
negation=not: niet niets geen niemand nergens zonder nee
negation=not polarity=always: niemals nooit
negation=concord: ни ничего ничто ничем ничему никто никого никому никем нигде никуда ниоткуда никак {_inflected("никак", "ой ая ое ие ого ую их ому им ими")}
negation=concord: ні нічого ніщо ніхто нікого нікому ніде нікуди ніяк жоден {_inflected("жодн", "ий а е ого ої их ому им ими ій")}
negation=concord: pas rien aucun aucune aucuns aucunes ni nada nadie ningún ninguno ninguna ningunos ningunas tampoco
negation=concord: nessuno nessuna nessun niente nulla neanche nemmeno neppure ninguém nenhum nenhuma nenhuns nenhumas nem tampouco
negation=concord: niczego niczym niczemu nikt nikogo nikomu nikim nigdzie ani żaden {_inflected("żadn", "a e ego ej emu ym ą ych ymi")}
negation=concord: ούτε ουτε τίποτα τίποτε κανένας κανείς καμία κανένα κανέναν καμιά πουθενά
negation=concord polarity=always: никогда ніколи jamais nunca jamás nigdy ποτέ
negation=concord date=may: mai
polarity=before: перед прежде bevor vorher zuvor avant antes prima przed voordat πριν
polarity=after: после після nachdem danach après después dopo depois após nadat daarna μετά
polarity=more: больше более більше mehr más più więcej περισσότερο περισσότερα
polarity=less: меньше менее менше weniger menos meno mniej minder λιγότερο λιγότερα
date=today: сегодня сьогодні heute aujourd'hui hoy oggi hoje dzisiaj dziś vandaag σήμερα
date=tomorrow: завтра morgen demain mañana domani amanhã jutro αύριο
date=yesterday: вчера вчора gestern ayer ieri ontem wczoraj gisteren χθες
"""

_RU_MASC = "- а у ом е и ам ов ами ах"  # понедельник, вторник, четверг
_RU_FEM = "а у ы е ой ей ам ами ах"  # пятница, суббота
_UK_FRIDAY = "п'ятниц"
_PL_MASC = "ek ku ki kiem kami kach ków"  # wtorek, czwartek, piątek, poniedziałek
WEEKDAYS = {
    "monday": f"{_inflected('понедельник', _RU_MASC)} понеділок {_inflected('понеділк', 'а у ом и ам ах')} "
    f"montag montags lundi lundis lunes lunedì lunedi {_inflected('poniedział', _PL_MASC)} "
    "maandag maandags δευτέρα δευτέρας δευτέρες",
    "tuesday": f"{_inflected('вторник', _RU_MASC)} вівторок {_inflected('вівторк', 'а у ом и ам ах')} "
    f"dienstag dienstags mardi mardis martes martedì martedi {_inflected('wtor', _PL_MASC)} "
    "dinsdag dinsdags τρίτη τρίτης τρίτες",
    "wednesday": f"середа {_inflected('серед', 'у и і ою ам ами ах')} mittwoch mittwochs mercredi mercredis "
    f"miércoles miercoles mercoledì mercoledi {_inflected('śr', 'oda odę ody odzie odą odami odach odom')} "
    "woensdag woensdags τετάρτη τετάρτης τετάρτες",
    "thursday": f"{_inflected('четверг', _RU_MASC)} четвер "
    f"donnerstag donnerstags jeudi jeudis jueves giovedì giovedi {_inflected('czwart', _PL_MASC)} "
    "donderdag donderdags πέμπτη πέμπτης πέμπτες",
    "friday": f"{_inflected('пятниц', _RU_FEM)} {_inflected(_UK_FRIDAY, 'я ю і ею ям ями ях')} "
    f"freitag freitags vendredi vendredis viernes venerdì venerdi {_inflected('piąt', _PL_MASC)} "
    "vrijdag vrijdags παρασκευή παρασκευής παρασκευές",
    "saturday": f"{_inflected('суббот', _RU_FEM)} {_inflected('субот', 'а у и і ою ам ами ах')} "
    "samstag samstags sonnabend sonnabends samedi samedis sábado sábados sabato sabati "
    f"{_inflected('sobot', 'a ę y a ą ami ach')} sobocie zaterdag zaterdags σάββατο σαββάτου σάββατα",
    "sunday": f"воскресенье {_inflected('воскресень', 'я ю ем ям ями ях')} "
    f"неділя {_inflected('неділ', 'ю і ею ям ями ях')} sonntag sonntags dimanche dimanches domingo domingos "
    f"domenica domeniche {_inflected('niedziel', 'a ę i ą e ami ach')} zondag zondags κυριακή κυριακής κυριακές",
}
# Portuguese weekdays are two words ("segunda-feira"), read as a pair.
WEEKDAY_PAIRS = {
    ("segunda", "feira"): "monday",
    ("terça", "feira"): "tuesday",
    ("quarta", "feira"): "wednesday",
    ("quinta", "feira"): "thursday",
    ("sexta", "feira"): "friday",
}
_RU_MONTH = "ь я е ю ём ем"  # январь, января, январе …
_UK_MONTH = "ень ня ні ню нем"  # січень, січня, січні …
MONTHS = {
    "january": f"{_inflected('январ', _RU_MONTH)} {_inflected('січ', _UK_MONTH)} januar jänner janvier enero "
    "gennaio janeiro styczeń stycznia styczniu januari ιανουάριος ιανουαρίου",
    "february": f"{_inflected('феврал', _RU_MONTH)} лютий лютого лютому februar février fevrier febrero "
    "febbraio fevereiro luty lutego lutym februari φεβρουάριος φεβρουαρίου",
    "march": f"март марта марте марту мартом {_inflected('берез', _UK_MONTH)} märz mars marzo março "
    "marzec marca marcu maart μάρτιος μαρτίου",
    "april": f"{_inflected('апрел', _RU_MONTH)} {_inflected('квіт', _UK_MONTH)} avril abril aprile "
    "kwiecień kwietnia kwietniu απρίλιος απριλίου",
    "may": f"май мая мае маю маем {_inflected('трав', _UK_MONTH)} mayo maggio maio maj maja maju mei μάιος μαΐου",
    "june": f"{_inflected('июн', _RU_MONTH)} {_inflected('черв', _UK_MONTH)} juni juin junio giugno junho "
    "czerwiec czerwca czerwcu ιούνιος ιουνίου",
    "july": f"{_inflected('июл', _RU_MONTH)} {_inflected('лип', _UK_MONTH)} juli juillet julio luglio julho "
    "lipiec lipca lipcu ιούλιος ιουλίου",
    "august": f"август августа августе августу августом {_inflected('серп', _UK_MONTH)} août aout agosto "
    "sierpień sierpnia sierpniu augustus αύγουστος αυγούστου",
    "september": f"{_inflected('сентябр', _RU_MONTH)} {_inflected('верес', _UK_MONTH)} septembre septiembre "
    "setiembre settembre setembro wrzesień września wrześniu σεπτέμβριος σεπτεμβρίου",
    "october": f"{_inflected('октябр', _RU_MONTH)} {_inflected('жовт', _UK_MONTH)} oktober octobre octubre "
    "ottobre outubro październik października październiku οκτώβριος οκτωβρίου",
    "november": f"{_inflected('ноябр', _RU_MONTH)} листопад листопада листопаді novembre noviembre novembro "
    "listopad listopada listopadzie νοέμβριος νοεμβρίου",
    "december": f"{_inflected('декабр', _RU_MONTH)} {_inflected('груд', _UK_MONTH)} dezember décembre diciembre "
    "decembre dicembre dezembro grudzień grudnia grudniu δεκέμβριος δεκεμβρίου",
}
# Number words added up like "forty" and "five" (сорок пять is 45, soixante-dix 70, dix-sept 17),
# their case forms too; "quatre-vingt(s)" is four times twenty (`meaning_words.number_words`).
NUMBERS = {
    2: "два две двух двум двумя дві двох двом двома zwei deux dois duas dwa dwie dwóch dwu dwom "
    "dwoma dwiema twee δύο δυο",
    3: "три трёх трех трём трем тремя трьох трьом трьома drei trois tres três tre trzy trzech trzem trzema "
    "drie τρία τρεις τριών",
    4: "четыре четырёх четырех четырём четырем четырьмя чотири чотирьох чотирьом чотирма vier quatre "
    "cuatro quatro quattro cztery czterech czterem czterema τέσσερα τέσσερις τεσσάρων",
    5: "пять пяти пятью п'ять п'яти п'ятьох п'ятьма fünf cinq cinco cinque pięć pięciu pięcioma vijf πέντε",
    6: "шесть шести шестью шість шістьох sechs six seis sześć sześciu sześcioma zes έξι",
    7: "семь семи сім сімох sieben siete sete sette siedem siedmiu siedmioma zeven επτά εφτά sept",
    8: "восемь восьми восемью вісім вісьмох acht huit ocho oito otto osiem ośmiu ośmioma οκτώ οχτώ",
    9: "девять девяти девятью дев'ять дев'яти neun neuf nueve nove dziewięć dziewięciu negen εννέα εννιά",
    10: "десять десяти десятью zehn dix diez dez dieci dziesięć dziesięciu tien δέκα",
    11: "одиннадцать одиннадцати одинадцять одинадцяти elf undici jedenaście jedenastu έντεκα ένδεκα",
    12: "двенадцать двенадцати дванадцять дванадцяти zwölf douze dodici dwanaście dwunastu twaalf δώδεκα",
    13: "тринадцать тринадцати тринадцять тринадцяти dreizehn treize trece treze tredici trzynaście trzynastu "
    "dertien δεκατρία",
    14: "четырнадцать четырнадцати чотирнадцять чотирнадцяти vierzehn quatorze catorce catorze quattordici "
    "czternaście czternastu veertien δεκατέσσερα",
    15: "пятнадцать пятнадцати п'ятнадцять п'ятнадцяти fünfzehn quinze quince quindici piętnaście "
    "piętnastu vijftien δεκαπέντε",
    16: "шестнадцать шестнадцати шістнадцять шістнадцяти sechzehn dieciséis dezesseis dezasseis sedici "
    "szesnaście szesnastu zestien δεκαέξι",
    17: "семнадцать семнадцати сімнадцять сімнадцяти siebzehn diecisiete dezessete dezassete diciassette "
    "siedemnaście siedemnastu zeventien δεκαεπτά δεκαεφτά",
    18: "восемнадцать восемнадцати вісімнадцять вісімнадцяти achtzehn dieciocho dezoito diciotto "
    "osiemnaście osiemnastu achttien δεκαοκτώ δεκαοχτώ",
    19: "девятнадцать девятнадцати дев'ятнадцять дев'ятнадцяти neunzehn diecinueve dezenove dezanove "
    "diciannove dziewiętnaście dziewiętnastu negentien δεκαεννέα δεκαεννιά",
    20: "двадцать двадцати двадцять двадцяти zwanzig vingt vingts veinte vinte venti dwadzieścia dwudziestu "
    "twintig είκοσι",
    30: "тридцать тридцати тридцять тридцяти dreißig trente treinta trinta trenta trzydzieści trzydziestu "
    "dertig τριάντα",
    40: "сорок сорока vierzig quarante cuarenta quarenta quaranta czterdzieści czterdziestu veertig σαράντα",
    50: "пятьдесят пятидесяти п'ятдесят п'ятдесяти fünfzig cinquante cincuenta cinquenta cinquanta "
    "pięćdziesiąt pięćdziesięciu vijftig πενήντα",
    60: "шестьдесят шестидесяти шістдесят шістдесяти sechzig soixante sesenta sessenta sessanta "
    "sześćdziesiąt sześćdziesięciu zestig εξήντα",
    70: "семьдесят семидесяти сімдесят сімдесяти siebzig setenta settanta siedemdziesiąt "
    "siedemdziesięciu zeventig εβδομήντα",
    80: "восемьдесят восьмидесяти вісімдесят вісімдесяти achtzig ochenta oitenta ottanta osiemdziesiąt "
    "osiemdziesięciu tachtig ογδόντα",
    90: "девяносто девяноста дев'яносто дев'яноста neunzig noventa novanta dziewięćdziesiąt "
    "dziewięćdziesięciu negentig ενενήντα",
}
# A German or Dutch number under a hundred is one word, its units first (fünfundvierzig,
# vijfenveertig, tweeëntwintig); Spanish twenty-something too (veinticinco).
_GERMAN_UNITS = "ein zwei drei vier fünf sechs sieben acht neun"
_GERMAN_TENS = "zwanzig dreißig vierzig fünfzig sechzig siebzig achtzig neunzig"
_DUTCH_UNITS = "een twee drie vier vijf zes zeven acht negen"
_DUTCH_TENS = "twintig dertig veertig vijftig zestig zeventig tachtig negentig"
_SPANISH_TWENTIES = (
    "veintidós veintitrés veinticuatro veinticinco veintiséis veintisiete veintiocho veintinueve"
)


def _compounds() -> dict[int, str]:
    forms: dict[int, list[str]] = {}
    for units, tens, join in ((_GERMAN_UNITS, _GERMAN_TENS, "und"), (_DUTCH_UNITS, _DUTCH_TENS, "en")):
        for u, unit in enumerate(units.split(), 1):
            for t, ten in enumerate(tens.split(), 2):
                glue = "ën" if join == "en" and unit.endswith("e") else join
                forms.setdefault(10 * t + u, []).append(unit + glue + ten)
    for u, word in enumerate(_SPANISH_TWENTIES.split(), 2):
        forms[20 + u].append(word)
    forms[21] += ["veintiuno", "veintiún", "veintiuna"]
    return {n: " ".join(words) for n, words in forms.items()}


COMPOUND_NUMBERS = _compounds()
# Multiply what comes before them: "hundred" (drei hundert) and "thousand", "million".
HUNDREDS = "сто ста hundert cien ciento cem cento stu honderd εκατό"
THOUSANDS = (
    "тысяча тысячи тысяч тысячу тысячей тисяча тисячі тисяч тисячу tausend mille mil tysiąc tysiące tysięcy "
    "duizend χίλια χιλιάδες"
)
MILLIONS = (
    "миллион миллиона миллионов мільйон мільйона мільйонів million millionen millions millón millones "
    "milione milioni milhão milhões milion miliony milionów miljoen εκατομμύριο εκατομμύρια"
)
# Elided articles and prepositions before an apostrophe (French, Italian): d'août is août.
ELISIONS = frozenset(_words("l d j m t s c n qu jusqu lorsqu puisqu un dell all dall nell sull quest quell"))
# Sentence-initial words that are not names (articles, prepositions, pronouns, conjunctions):
# elsewhere a capital marks a name, so "По понедельникам …" would "add a name" по.
COMMON = frozenset(
    _words(
        """в во на по с со к у о об от из за для и а но это этот эта эти мы вы они он она
    у з із до від для і й та але це ми ви вони він вона
    der die das den dem des im am zum zur bei mit von für auf aus um wir sie er es ich
    le la les des du de au aux en dans pour par sur avec il elle ils elles nous vous je
    el los las del al con por para ella ellos nosotros
    lo gli il nel nella della per da di noi voi
    o os as do da dos das no na nos nas em com ele eles nós
    w we z ze od dla ale to ten ta te my wy oni ona
    het een van op voor wij zij hij ze
    ο η το οι τα τον την του της των σε στο στη στον στην στις με για από και εμείς αυτός αυτή"""
    )
)
# "And", "also", "as well": free to add or leave out, like their English counterparts.
CONNECTIVES = frozenset(
    _words("та також теж oraz także również też ook en και επίσης además inoltre também ebenfalls")
)
