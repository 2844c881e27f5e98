"""Calendar task families: add, remove, duplicate and edit events.

Parameters are drawn from the state of the active variation (titles are quoted exactly as they
appear there, in the pack's language); new titles, locations and descriptions come from small
per-language lists chosen by the pack's ``shell.lang``. Oracle scripts open the app from the
start page, step through the months with Previous / Next until the target day is on the page,
open the day and then the event, all by ``data-testid``.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from datetime import date, timedelta

from openapps_sim.config.normalise import norm_text
from openapps_sim.taskkit import UI, Infeasible, Step, TaskFamily, family, pick
from openapps_sim.taskkit.observation import page_testids

NEW_TITLES = {
    "en": [
        "Coffee with Hannah",
        "Piano tuner visit",
        "Call the insurance company",
        "Team lunch",
        "Pick up the new glasses",
        "Dinner with Marco",
        "Bike repair",
        "Chess evening with David",
        "Photo walk in the old town",
        "Renew the parking permit",
        "Webinar: data privacy",
        "Plumber visit",
        "Museum visit with Leo",
        "Tennis with Lucas",
        "Interview with a journalist",
        "Garden centre trip",
        "Return the library books",
        "Cooking class",
    ],
    "de": [
        "Kaffee mit Hannah",
        "Klavierstimmer kommt",
        "Versicherung anrufen",
        "Teamessen",
        "Neue Brille abholen",
        "Abendessen mit Marco",
        "Fahrradreparatur",
        "Schachabend mit David",
        "Fotospaziergang in der Altstadt",
        "Anwohnerparkausweis verlängern",
        "Webinar: Datenschutz",
        "Klempner kommt",
        "Museumsbesuch mit Leo",
        "Tennis mit Lucas",
        "Interview mit einer Journalistin",
        "Ausflug ins Gartencenter",
        "Bücher in der Bibliothek abgeben",
        "Kochkurs",
    ],
    "fr": [
        "Café avec Hannah",
        "Passage de l'accordeur de piano",
        "Appeler l'assurance",
        "Déjeuner d'équipe",
        "Récupérer les nouvelles lunettes",
        "Dîner avec Marco",
        "Réparation du vélo",
        "Soirée échecs avec David",
        "Balade photo dans la vieille ville",
        "Renouveler la carte de stationnement",
        "Webinaire : protection des données",
        "Passage du plombier",
        "Musée avec Leo",
        "Tennis avec Lucas",
        "Interview avec une journaliste",
        "Sortie à la jardinerie",
        "Rendre les livres à la bibliothèque",
        "Cours de cuisine",
    ],
    "es": [
        "Café con Hannah",
        "Visita del afinador de pianos",
        "Llamar a la aseguradora",
        "Comida de equipo",
        "Recoger las gafas nuevas",
        "Cena con Marco",
        "Reparar la bicicleta",
        "Noche de ajedrez con David",
        "Paseo fotográfico por el casco antiguo",
        "Renovar el permiso de aparcamiento",
        "Webinario: protección de datos",
        "Visita del fontanero",
        "Museo con Leo",
        "Tenis con Lucas",
        "Entrevista con una periodista",
        "Excursión al vivero",
        "Devolver los libros a la biblioteca",
        "Clase de cocina",
    ],
    "zh": [
        "和Hannah喝咖啡",
        "钢琴调音师上门",
        "给保险公司打电话",
        "团队午餐",
        "取新眼镜",
        "和Marco吃晚饭",
        "修自行车",
        "和David下棋",
        "老城摄影散步",
        "续办停车证",
        "网络研讨会：数据隐私",
        "水管工上门",
        "和Leo去博物馆",
        "和Lucas打网球",
        "接受记者采访",
        "去园艺中心",
        "去图书馆还书",
        "烹饪课",
    ],
}

NEW_LOCATIONS = {
    "en": [
        "Meeting room 3",
        "Café Lumen",
        "Main Street Library",
        "Town Hall, room 2",
        "The Green Kitchen",
        "Office lobby",
        "Sports centre, court 2",
        "Online",
    ],
    "de": [
        "Besprechungsraum 3",
        "Café Lumen",
        "Stadtbibliothek Hauptstraße",
        "Rathaus, Raum 2",
        "Restaurant Grüne Küche",
        "Foyer im Büro",
        "Sportzentrum, Platz 2",
        "Online",
    ],
    "fr": [
        "Salle de réunion 3",
        "Café Lumen",
        "Bibliothèque de la rue Principale",
        "Mairie, salle 2",
        "Restaurant La Cuisine Verte",
        "Hall du bureau",
        "Centre sportif, court 2",
        "En ligne",
    ],
    "es": [
        "Sala de reuniones 3",
        "Café Lumen",
        "Biblioteca de la calle Mayor",
        "Ayuntamiento, sala 2",
        "Restaurante La Cocina Verde",
        "Vestíbulo de la oficina",
        "Polideportivo, pista 2",
        "En línea",
    ],
    "zh": [
        "3号会议室",
        "流明咖啡馆",
        "大街图书馆",
        "市政厅2号房间",
        "绿色厨房餐厅",
        "办公楼大厅",
        "体育中心2号场地",
        "线上",
    ],
}

NEW_DESCRIPTIONS = {
    "en": [
        "Bring the printed agenda.",
        "Remember to bring the receipts.",
        "Booked under my name.",
        "Parking is behind the building.",
        "Ask about the new schedule.",
    ],
    "de": [
        "Die ausgedruckte Tagesordnung mitbringen.",
        "Quittungen nicht vergessen.",
        "Auf meinen Namen gebucht.",
        "Parkplätze hinter dem Gebäude.",
        "Nach dem neuen Zeitplan fragen.",
    ],
    "fr": [
        "Apporter l'ordre du jour imprimé.",
        "Penser à apporter les reçus.",
        "Réservé à mon nom.",
        "Le parking est derrière le bâtiment.",
        "Demander le nouveau planning.",
    ],
    "es": [
        "Llevar el orden del día impreso.",
        "Acordarse de llevar los recibos.",
        "Reservado a mi nombre.",
        "El aparcamiento está detrás del edificio.",
        "Preguntar por el nuevo horario.",
    ],
    "zh": ["带上打印好的议程。", "记得带上收据。", "用我的名字预订的。", "停车场在楼后面。", "问一下新的时间安排。"],
}

PEOPLE = [
    "Priya Nair",
    "Tom Becker",
    "Anna Weber",
    "Mei Chen",
    "Jonas Berg",
    "Olivia Brown",
    "Carlos Ruiz",
    "Hannah Schmidt",
    "Ben Okafor",
    "Yuki Tanaka",
]

TIMES = [f"{h:02d}:{m:02d}" for h in range(8, 20) for m in (0, 15, 30, 45)]

_MONTHS = {
    "en": "January February March April May June July August September October November December".split(),
    "de": "Januar Februar März April Mai Juni Juli August September Oktober November Dezember".split(),
    "fr": "janvier février mars avril mai juin juillet août septembre octobre novembre décembre".split(),
}
_WEEKDAYS = {
    "en": "Monday Tuesday Wednesday Thursday Friday Saturday Sunday".split(),
    "de": "Montag Dienstag Mittwoch Donnerstag Freitag Samstag Sonntag".split(),
    "fr": "lundi mardi mercredi jeudi vendredi samedi dimanche".split(),
}
_AND = {"en": "and", "de": "und", "fr": "et"}
_DAY_ID = re.compile(r"^calendar-day-(\d{4}-\d{2}-\d{2})$")


# -- helpers ----------------------------------------------------------------------------------
def _lang(config: dict) -> str:
    lang = str(config.get("shell", {}).get("lang", "en"))
    return lang if lang in NEW_TITLES else "en"


def _today(config: dict) -> date:
    return date.fromisoformat(str(config["calendar"]["today"]))


def day_text(iso: str, lang: str) -> str:
    """A written-out date in a goal language: 'Saturday, March 14, 2026'."""
    d = date.fromisoformat(iso)
    wd, mo = _WEEKDAYS[lang][d.weekday()], _MONTHS[lang][d.month - 1]
    if lang == "de":
        return f"{wd}, {d.day}. {mo} {d.year}"
    if lang == "fr":
        return f"{wd} {d.day} {mo} {d.year}"
    return f"{wd}, {mo} {d.day}, {d.year}"


def time_12h(hhmm: str) -> str:
    h, m = int(hhmm[:2]), hhmm[3:]
    return f"{(h % 12) or 12}:{m} {'am' if h < 12 else 'pm'}"


def _names(names: list[str], lang: str) -> str:
    quoted = [f"'{n}'" for n in names]
    if len(quoted) == 1:
        return quoted[0]
    return ", ".join(quoted[:-1]) + f" {_AND[lang]} " + quoted[-1]


def _date_params(prefix: str, iso: str) -> dict:
    return {f"{prefix}_{lang}": day_text(iso, lang) for lang in ("en", "de", "fr")}


def unique_events(state: dict) -> list[dict]:
    """Events whose title (folded) no other event shares: they can be named unambiguously."""
    events = state["calendar"]["events"]
    counts = Counter(norm_text(e["title"]) for e in events)
    return [e for e in events if counts[norm_text(e["title"])] == 1]


def _free_titles(state: dict, lang: str) -> list[str]:
    taken = {norm_text(e["title"]) for e in state["calendar"]["events"]}
    return [t for t in NEW_TITLES[lang] if norm_text(t) not in taken]


def _event_params(ev: dict) -> dict:
    return {"event_id": ev["id"], "title": ev["title"], "date": ev["date"], **_date_params("day", ev["date"])}


def _find(state: dict, eid: str) -> dict:
    for ev in state["calendar"]["events"]:
        if ev["id"] == eid:
            return ev
    raise Infeasible(f"event {eid} is not in the state")


def go_to_day(ui: type[UI], obs: dict, iso: str, limit: int = 36) -> Iterator[Step]:
    """Step through the months (Previous / Next) until the day is on the page, then open it."""
    target = f"calendar-day-{iso}"
    for _ in range(limit):
        ids = page_testids(obs)
        if target in ids:
            break
        shown = sorted(m.group(1) for m in map(_DAY_ID.match, ids) if m)
        obs = yield ui.click("calendar-next" if shown and shown[-1] < iso else "calendar-prev")
    return (yield ui.click(target))


def open_event(ui: type[UI], ev_id: str, iso: str) -> Iterator[Step]:
    """From the start page: open the calendar, find the event's day and open the event."""
    obs = yield from ui.open_app("calendar")
    yield from go_to_day(ui, obs, iso)
    return (yield ui.click(f"calendar-event-{ev_id}"))


def _new_event(state: dict, **fields) -> None:
    cal = state["calendar"]
    ev = {"id": f"e{cal['next_id']}", "title": "", "date": "", "time": "", "description": "", "url": ""}
    ev.update(invitees=[], location="")
    ev.update(fields)
    cal["events"].append(ev)
    cal["next_id"] += 1


# -- families ---------------------------------------------------------------------------------
@family
class AddEvent(TaskFamily):
    id = "calendar.add_event"
    apps = ("calendar",)
    max_steps = 20
    description = (
        "Create a calendar event with a given title, date and time; some instances also give a location, "
        "invitees and a description."
    )
    phrasings = {
        "plain": [
            "Add an event '{title}' to my calendar on {date} at {time}.{extras_en}",
            "Create a calendar event called '{title}' on {day_en} at {time}.{extras_en}",
            "Schedule '{title}' for {date} at {time}.{extras_en}",
        ],
        "casual": [
            "hey, can you put '{title}' in my calendar for {day_en}, {time_12h}?{extras_en}",
            "pls add '{title}' to the calendar, {date} at {time}.{extras_en}",
            "Could you pop '{title}' into my calendar? It's on {day_en} at {time}.{extras_en}",
        ],
        "context": [
            "I spilled coffee on my desk this morning, what a mess. Anyway, add '{title}' to my calendar "
            "on {date} at {time}.{extras_en}",
            "My week is getting busy and I keep double-booking myself, so please create an event '{title}' "
            "on {day_en} at {time}.{extras_en}",
            "The printer is jammed again, never mind. Please schedule '{title}' for {date} at {time} in the "
            "calendar.{extras_en}",
        ],
        "de": [
            "Trage den Termin '{title}' am {date} um {time} in meinen Kalender ein.{extras_de}",
            "Erstelle im Kalender einen Termin '{title}' für {day_de} um {time} Uhr.{extras_de}",
            "Kannst du '{title}' am {day_de} um {time} in den Kalender eintragen?{extras_de}",
        ],
        "fr": [
            "Ajoute l'événement '{title}' à mon calendrier le {date} à {time}.{extras_fr}",
            "Crée un événement '{title}' le {day_fr} à {time}.{extras_fr}",
            "Peux-tu mettre '{title}' dans le calendrier, le {day_fr} à {time} ?{extras_fr}",
        ],
    }

    def sample(self, state, config, rng):
        lang = _lang(config)
        title = pick(rng, _free_titles(state, lang), "new event title")
        iso = (_today(config) + timedelta(days=rng.randint(-20, 120))).isoformat()
        tm = rng.choice(TIMES)
        location = rng.choice(NEW_LOCATIONS[lang]) if rng.random() < 0.4 else ""
        invitees = sorted(rng.sample(PEOPLE, rng.randint(1, 3))) if rng.random() < 0.4 else []
        description = rng.choice(NEW_DESCRIPTIONS[lang]) if rng.random() < 0.35 else ""
        params = {
            "title": title,
            "date": iso,
            "time": tm,
            "time_12h": time_12h(tm),
            **_date_params("day", iso),
            "location": location,
            "invitees": invitees,
            "description": description,
        }
        extras = {
            "en": (" Location: '{}'.", " Invite {}.", " Description: '{}'"),
            "de": (" Ort: '{}'.", " Lade {} ein.", " Beschreibung: '{}'"),
            "fr": (" Lieu : '{}'.", " Invite {}.", " Description : '{}'"),
        }
        for lang_key, (loc_t, inv_t, desc_t) in extras.items():
            text = ""
            if location:
                text += loc_t.format(location)
            if invitees:
                text += inv_t.format(_names(invitees, lang_key))
            if description:
                text += desc_t.format(description)
            params[f"extras_{lang_key}"] = text
        return params

    def apply(self, state, params):
        _new_event(
            state,
            title=params["title"],
            date=params["date"],
            time=params["time"],
            description=params["description"],
            invitees=list(params["invitees"]),
            location=params["location"],
        )

    def solve(self, params, ui):
        yield from ui.open_app("calendar")
        yield ui.click("calendar-new")
        yield ui.fill("calendar-field-title", params["title"])
        yield ui.fill("calendar-field-date", params["date"])
        yield ui.fill("calendar-field-time", params["time"])
        if params["location"]:
            yield ui.fill("calendar-field-location", params["location"])
        if params["invitees"]:
            yield ui.fill("calendar-field-invitees", ", ".join(params["invitees"]))
        if params["description"]:
            yield ui.fill("calendar-field-description", params["description"])
        yield ui.click("calendar-save")


@family
class RemoveEvent(TaskFamily):
    id = "calendar.remove_event"
    apps = ("calendar",)
    max_steps = 25
    description = "Delete one named event (its title is unique in the calendar) from the calendar."
    phrasings = {
        "plain": [
            "Delete the event '{title}' on {date} from my calendar.",
            "Remove '{title}' ({day_en}) from the calendar.",
            "Cancel the calendar event '{title}' on {day_en} by deleting it.",
        ],
        "casual": [
            "'{title}' on {day_en} isn't happening anymore, can you delete it from my calendar?",
            "pls get rid of '{title}' ({date}) in my calendar",
            "Scrap '{title}' from the calendar, it's on {day_en}.",
        ],
        "context": [
            "My plans changed completely this week, it's been chaos. Please delete '{title}' on {date} "
            "from my calendar.",
            "I just got back from a long walk with the dog. Before I forget: remove '{title}' ({day_en}) "
            "from the calendar.",
            "The heating is broken again and I'm waiting for the technician. Meanwhile, delete the event "
            "'{title}' on {day_en}.",
        ],
        "de": [
            "Lösche den Termin '{title}' am {date} aus meinem Kalender.",
            "Entferne '{title}' ({day_de}) aus dem Kalender.",
            "'{title}' am {day_de} fällt aus, bitte lösch den Termin.",
        ],
        "fr": [
            "Supprime l'événement '{title}' du {date} de mon calendrier.",
            "Retire '{title}' ({day_fr}) du calendrier.",
            "'{title}' le {day_fr} est annulé, peux-tu supprimer l'événement ?",
        ],
    }

    def sample(self, state, config, rng):
        ev = pick(rng, unique_events(state), "event with a unique title")
        return _event_params(ev)

    def apply(self, state, params):
        cal = state["calendar"]
        cal["events"] = [e for e in cal["events"] if e["id"] != params["event_id"]]

    def solve(self, params, ui):
        yield from open_event(ui, params["event_id"], params["date"])
        yield ui.click(f"calendar-delete-{params['event_id']}")


@family
class DuplicateEvent(TaskFamily):
    id = "calendar.duplicate_event"
    apps = ("calendar",)
    max_steps = 25
    description = "Copy an existing event to another date: a new event with the same details and the new date."
    phrasings = {
        "plain": [
            "Copy the event '{title}' on {date} to {new_date}, keeping all its other details.",
            "Duplicate '{title}' ({day_en}) onto {new_day_en}: same details, new date.",
            "Create a copy of the calendar event '{title}' from {date} on {new_date}.",
        ],
        "casual": [
            "can you clone '{title}' ({day_en}) to {new_day_en}? same everything, just the new date",
            "'{title}' on {date} is happening again on {new_date}, pls copy it over",
            "Mind duplicating '{title}' from {day_en} to {new_day_en}? Keep the rest the same.",
        ],
        "context": [
            "The last one went really well and everyone asked for a repeat. Copy '{title}' ({date}) to "
            "{new_date}, with the same details.",
            "I'm on the train and the Wi-Fi keeps dropping, so quickly: duplicate '{title}' from {day_en} "
            "to {new_day_en}.",
            "My neighbour's renovation is driving me mad. Anyway, please copy the event '{title}' on {date} "
            "to {new_date}, everything else unchanged.",
        ],
        "de": [
            "Kopiere den Termin '{title}' vom {date} auf den {new_date}, alle anderen Angaben bleiben gleich.",
            "Dupliziere '{title}' ({day_de}) auf {new_day_de}: gleiche Angaben, neues Datum.",
            "Lege eine Kopie von '{title}' ({date}) am {new_date} an.",
        ],
        "fr": [
            "Copie l'événement '{title}' du {date} au {new_date}, en gardant tous les autres détails.",
            "Duplique '{title}' ({day_fr}) au {new_day_fr} : mêmes détails, nouvelle date.",
            "Crée une copie de '{title}' ({date}) le {new_date}.",
        ],
    }

    def sample(self, state, config, rng):
        ev = pick(rng, unique_events(state), "event with a unique title")
        today = _today(config)
        choices = [(today + timedelta(days=k)).isoformat() for k in range(-14, 91)]
        new_date = rng.choice([d for d in choices if d != ev["date"]])
        return {**_event_params(ev), "new_date": new_date, **_date_params("new_day", new_date)}

    def apply(self, state, params):
        src = _find(state, params["event_id"])
        copy = {k: (list(v) if isinstance(v, list) else v) for k, v in src.items() if k != "id"}
        copy["date"] = params["new_date"]
        _new_event(state, **copy)

    def solve(self, params, ui):
        eid = params["event_id"]
        yield from open_event(ui, eid, params["date"])
        yield ui.click(f"calendar-duplicate-{eid}")
        yield ui.fill("calendar-field-date", params["new_date"])
        yield ui.click("calendar-save")


@family
class EditEvent(TaskFamily):
    id = "calendar.edit_event"
    apps = ("calendar",)
    max_steps = 25
    description = "Change one field (time, title or location) of a named event."
    FIELD_NAMES = {
        "time": {"en": "time", "de": "die Uhrzeit", "fr": "l'heure"},
        "title": {"en": "title", "de": "den Titel", "fr": "le titre"},
        "location": {"en": "location", "de": "den Ort", "fr": "le lieu"},
    }
    phrasings = {
        "plain": [
            "Change the {field_en} of the event '{title}' on {date} to '{value}'.",
            "In my calendar, set the {field_en} of '{title}' ({day_en}) to '{value}'.",
            "Update the event '{title}' on {day_en}: its {field_en} should be '{value}'.",
        ],
        "casual": [
            "can you switch the {field_en} of '{title}' ({date}) to '{value}'?",
            "'{title}' on {day_en} needs a new {field_en}: '{value}'. pls fix",
            "Quick one: make the {field_en} of '{title}' on {date} '{value}'.",
        ],
        "context": [
            "Things keep moving around at work this month. Please change the {field_en} of '{title}' "
            "({day_en}) to '{value}'.",
            "I've had a long day and just got home. Could you set the {field_en} of the event '{title}' on "
            "{date} to '{value}'?",
            "We just got a new puppy, so my head is elsewhere. In the calendar, '{title}' on {day_en} should "
            "have '{value}' as its {field_en}.",
        ],
        "de": [
            "Ändere {field_de} des Termins '{title}' am {date} auf '{value}'.",
            "Setze im Kalender {field_de} von '{title}' ({day_de}) auf '{value}'.",
            "Beim Termin '{title}' am {day_de} soll sich {field_de} ändern: neu ist '{value}'.",
        ],
        "fr": [
            "Change {field_fr} de l'événement '{title}' du {date} en '{value}'.",
            "Dans mon calendrier, mets {field_fr} de '{title}' ({day_fr}) à '{value}'.",
            "Pour l'événement '{title}' le {day_fr}, remplace {field_fr} par '{value}'.",
        ],
    }

    def sample(self, state, config, rng):
        lang = _lang(config)
        ev = pick(rng, unique_events(state), "event with a unique title")
        field = rng.choice(["time", "title", "location"])
        if field == "time":
            value = rng.choice([t for t in TIMES if t != ev["time"]])
        elif field == "title":
            value = pick(rng, _free_titles(state, lang), "new event title")
        else:
            value = rng.choice([p for p in NEW_LOCATIONS[lang] if norm_text(p) != norm_text(ev["location"])])
        names = {f"field_{k}": v for k, v in self.FIELD_NAMES[field].items()}
        return {**_event_params(ev), "field": field, "value": value, **names}

    def apply(self, state, params):
        _find(state, params["event_id"])[params["field"]] = params["value"]

    def solve(self, params, ui):
        eid = params["event_id"]
        yield from open_event(ui, eid, params["date"])
        yield ui.click(f"calendar-edit-{eid}")
        yield ui.fill(f"calendar-field-{params['field']}", params["value"])
        yield ui.click("calendar-save")


__all__ = ["AddEvent", "DuplicateEvent", "EditEvent", "RemoveEvent", "day_text", "go_to_day", "unique_events"]
