"""Maps task families: save a place from the gazetteer, remove a saved location, drop a pin.

Parameters come from the active variation's gazetteer and saved list, so names are quoted in
the pack's language. Coordinates are compared after the maps app's normalisation (rounded to
two decimals), which gives a dropped pin a tolerance of 0.005° around the target place.
"""

from __future__ import annotations

from openapps_sim.apps.maps import model

from openapps_sim.config.normalise import distance_km, norm_text
from openapps_sim.taskkit import TaskFamily, family, pick

# Names for dropped pins, in the language of the active pack (shell.lang).
PIN_LABELS = {
    "en": ["Meeting point", "Parking spot", "Picnic spot", "Photo spot", "Lunch place", "Where we met"],
    "de": ["Treffpunkt", "Parkplatz", "Picknickplatz", "Fotospot", "Mittagessen", "Hier haben wir uns getroffen"],
    "fr": ["Point de rendez-vous", "Place de parking", "Coin pique-nique", "Spot photo", "Déjeuner", "Notre rencontre"],
    "es": ["Punto de encuentro", "Aparcamiento", "Sitio de pícnic", "Lugar para fotos", "Almuerzo", "Donde nos vimos"],
    "zh": ["集合点", "停车位", "野餐地点", "拍照点", "午餐地点", "我们见面的地方"],
}


def _unique_names(items: list[dict]) -> set[str]:
    """Folded names that occur exactly once."""
    counts: dict[str, int] = {}
    for item in items:
        key = norm_text(item["name"])
        counts[key] = counts.get(key, 0) + 1
    return {k for k, n in counts.items() if n == 1}


def _open_place(ui, name: str, place_id: str):
    """Search a place by name and open it from the results (the map centres on it)."""
    yield from ui.open_app("maps")
    yield ui.fill("maps-search", name)
    yield ui.click("maps-search-submit")
    yield ui.click(f"maps-result-{place_id}")


@family
class SavePlace(TaskFamily):
    id = "maps.save_place"
    apps = ("maps",)
    max_steps = 10
    description = "Search the map for a named place and save it to the saved locations."
    phrasings = {
        "plain": [
            "Save '{name}' to my saved locations in Maps.",
            "In the Maps app, find '{name}' and save it.",
            "Add '{name}' to the saved places on the map.",
        ],
        "casual": [
            "can you pin '{name}' to my saved spots on the map?",
            "save '{name}' in maps for me pls",
            "Oh, could you bookmark '{name}' on the map? I want to go there.",
        ],
        "context": [
            "We're planning a trip next spring and I keep forgetting the names of things. Save '{name}' to my saved locations in Maps.",
            "My friend just told me about '{name}' over lunch — please find it in Maps and save it.",
            "The printer jammed again, ugh. Anyway, could you save '{name}' in my Maps saved places?",
        ],
        "de": [
            "Speichere '{name}' in meinen gespeicherten Orten in der Karten-App.",
            "Suche '{name}' in der Karten-App und speichere den Ort.",
            "Füge '{name}' zu den gespeicherten Orten auf der Karte hinzu.",
        ],
        "fr": [
            "Enregistre '{name}' dans mes lieux enregistrés de l'application Cartes.",
            "Dans Cartes, cherche '{name}' et enregistre-le.",
            "Ajoute '{name}' aux lieux enregistrés sur la carte.",
        ],
    }

    def sample(self, state, config, rng):
        maps = state["maps"]
        places = config["maps"]["places"]
        unique = _unique_names(places)
        taken_ids = {s.get("place") for s in maps["saved"]}
        taken_names = {norm_text(s["name"]) for s in maps["saved"]}
        candidates = [
            p
            for p in places
            if p["id"] not in taken_ids and norm_text(p["name"]) in unique and norm_text(p["name"]) not in taken_names
        ]
        place = pick(rng, candidates, "unsaved place")
        return {"place_id": place["id"], "name": place["name"], "lat": place["lat"], "lon": place["lon"]}

    def apply(self, state, params):
        model.add_saved(state["maps"], params["name"], params["lat"], params["lon"], params["place_id"])

    def solve(self, params, ui):
        yield from _open_place(ui, params["name"], params["place_id"])
        yield ui.click(f"maps-save-{params['place_id']}")


@family
class RemoveSavedPlace(TaskFamily):
    id = "maps.remove_saved_place"
    apps = ("maps",)
    max_steps = 6
    description = "Remove one named location from the saved locations."
    phrasings = {
        "plain": [
            "Remove '{name}' from my saved locations in Maps.",
            "Delete the saved place '{name}' in the Maps app.",
            "In Maps, take '{name}' off the list of saved locations.",
        ],
        "casual": [
            "get rid of '{name}' from my saved places on the map",
            "i don't need '{name}' saved in maps anymore, remove it?",
            "Could you unsave '{name}' in maps real quick?",
        ],
        "context": [
            "Our plans changed because of the weather, so please remove '{name}' from my saved locations in Maps.",
            "I'm tidying up my phone this weekend. Start by removing '{name}' from the saved places in Maps.",
            "The cat knocked over my plant again. Sorry, unrelated — please delete '{name}' from my saved locations in Maps.",
        ],
        "de": [
            "Entferne '{name}' aus meinen gespeicherten Orten in der Karten-App.",
            "Lösche den gespeicherten Ort '{name}' in der Karten-App.",
            "Nimm '{name}' von der Liste der gespeicherten Orte auf der Karte.",
        ],
        "fr": [
            "Supprime '{name}' de mes lieux enregistrés dans Cartes.",
            "Retire le lieu enregistré '{name}' de l'application Cartes.",
            "Dans Cartes, enlève '{name}' de la liste des lieux enregistrés.",
        ],
    }

    def sample(self, state, config, rng):
        saved = state["maps"]["saved"]
        unique = _unique_names(saved)
        entry = pick(rng, [s for s in saved if norm_text(s["name"]) in unique], "saved location")
        return {"saved_id": entry["id"], "name": entry["name"]}

    def apply(self, state, params):
        model.remove_saved(state["maps"], params["saved_id"])

    def solve(self, params, ui):
        yield from ui.open_app("maps")
        yield ui.click(f"maps-remove-{params['saved_id']}")


@family
class DropPin(TaskFamily):
    id = "maps.drop_pin"
    apps = ("maps",)
    max_steps = 12
    description = (
        "Drop a pin on the map at a named place (within about half a kilometre) and save it under a given name."
    )
    phrasings = {
        "plain": [
            "In Maps, drop a pin right on '{place}' and save the pin as '{label}'.",
            "Put a pin on the map at '{place}' and save it under the name '{label}'.",
            "Drop a map pin exactly at '{place}', then save it as '{label}'.",
        ],
        "casual": [
            "drop a pin on '{place}' in maps and call it '{label}'",
            "can u stick a pin on the map at '{place}'? save it as '{label}'",
            "Mark '{place}' with a dropped pin named '{label}' please.",
        ],
        "context": [
            "I'm meeting my cousin later and we always get lost. Drop a pin on '{place}' in Maps and save it as '{label}'.",
            "The bus was late again this morning. Anyway, please drop a pin at '{place}' on the map and name it '{label}'.",
            "We're organising the reunion this summer. In Maps, put a pin on '{place}' and save it as '{label}'.",
        ],
        "de": [
            "Setze in der Karten-App eine Stecknadel genau auf '{place}' und speichere sie als '{label}'.",
            "Lege auf der Karte eine Markierung bei '{place}' ab und speichere sie unter dem Namen '{label}'.",
            "Markiere '{place}' auf der Karte mit einer Stecknadel namens '{label}'.",
        ],
        "fr": [
            "Dans Cartes, dépose une épingle pile sur '{place}' et enregistre-la sous le nom '{label}'.",
            "Place une épingle sur la carte à '{place}' et enregistre-la comme '{label}'.",
            "Marque '{place}' sur la carte avec une épingle nommée '{label}'.",
        ],
    }

    # no other place this close (km), so the marker of a neighbour never covers the target
    CLEARANCE_KM = 2.5

    def _alone(self, p: dict, places: list[dict]) -> bool:
        for q in places:
            if q is p or abs(q["lat"] - p["lat"]) > 0.1 or abs(q["lon"] - p["lon"]) > 0.2:
                continue
            if distance_km(p["lat"], p["lon"], q["lat"], q["lon"]) <= self.CLEARANCE_KM:
                return False
        return True

    def sample(self, state, config, rng):
        maps = state["maps"]
        places = config["maps"]["places"]
        unique = _unique_names(places)
        clear = [p for p in places if norm_text(p["name"]) in unique and abs(p["lat"]) <= 75 and self._alone(p, places)]
        place = pick(rng, clear, "place for a pin")
        lang = config.get("shell", {}).get("lang", "en")
        taken = {norm_text(s["name"]) for s in maps["saved"]}
        labels = [x for x in PIN_LABELS.get(lang, PIN_LABELS["en"]) if norm_text(x) not in taken]
        label = pick(rng, labels, "pin name")
        return {
            "place_id": place["id"],
            "place": place["name"],
            "label": label,
            "lat": round(place["lat"], 2),
            "lon": round(place["lon"], 2),
        }

    def apply(self, state, params):
        model.add_saved(state["maps"], params["label"], params["lat"], params["lon"])

    def solve(self, params, ui):
        # Opening the place centres the map on it; a click on the map's centre drops the pin there.
        yield from _open_place(ui, params["place"], params["place_id"])
        yield ui.click("maps-canvas")
        yield ui.fill("maps-pin-name", params["label"])
        yield ui.click("maps-pin-save")
