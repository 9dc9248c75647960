"""An EGN ruleset (``metadata.ruleset``) and the rule profile it plays under.

EGN names house rules, not rule books, so a ruleset is laid over a *base* profile
(the tournament book unless the reader says otherwise): what the ruleset names wins,
and what it cannot say (a dealer's natural trump, what a renege costs) comes from the
book.  Each EGN rule is one field of `RuleProfile`:

=====================  ===========================================
EGN                    rule profile
=====================  ===========================================
``std``                ``stick_the_dealer``
``canadian``           ``dealer_partner_order_forces_alone``
``loner_lead``         ``lone_lead``
``winning_score``      ``points_to_win``
``loner_march_score``  ``hand_points.lone_march``
``loner_euchred_score`` ``hand_points.lone_euchred``
``num_deals``          the game's length in deals (`EgnRuleset.num_deals`)
=====================  ===========================================

The rules the kiosk's engine does not play (a joker, no trump, defending alone, a
partner's best card, going under, farmer's hands, fast break, four-trick tokens,
another pack or number of players) are refused in one line naming the rule.

>>> rules = EgnRuleset.from_json({"std": True, "canadian": False, "loner_lead": "LEFT_OF_LONER"})
>>> profile = rules.profile(get_profile("tournament"))
>>> profile.stick_the_dealer, profile.dealer_partner_order_forces_alone, profile.lone_lead
(True, False, <LoneLead.LONERS_LEFT: 'loners_left'>)
>>> EgnRuleset.from_json({"joker": True})
Traceback (most recent call last):
...
kiosk.egn.notation.EgnError: $.metadata.ruleset.joker: the joker (best bower): not a rule ...
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from kiosk.egn.notation import EgnError
from kiosk.rules.profiles import LoneLead, RuleProfile, get_profile

WHERE = "$.metadata.ruleset"

#: EGN's names for who leads a lone hand.
LONER_LEAD = {"LEFT_OF_DEALER": LoneLead.DEALERS_LEFT, "LEFT_OF_LONER": LoneLead.LONERS_LEFT}

#: House rules EGN can switch on that the kiosk's engine does not play.
UNPLAYED = {
    "defend_alone": "defending alone",
    "farmers": "a farmer's hand",
    "partners_best": "calling for a partner's best card",
    "go_under": "going under",
    "joker": "the joker (best bower)",
    "allow_no_trump": "no trump",
    "fast_break": "the fast break",
    "four_trick_tokens": "four-trick tokens",
}

#: The book a ruleset is laid over when nobody names one: stick the dealer and no forced
#: lone hand, as EGN's own defaults (std true, canadian false).
DEFAULT_BASE = "tournament"


@dataclass(frozen=True)
class EgnRuleset:
    """The rules of an EGN game the kiosk can play, with EGN's defaults."""

    std: bool = True
    canadian: bool = False
    loner_lead: LoneLead = LoneLead.DEALERS_LEFT
    #: points that win the game; 0: none (a game of `num_deals` deals)
    winning_score: int = 10
    #: deals in the game; 0: no limit
    num_deals: int = 0
    loner_march_score: int = 4
    loner_euchred_score: int = 2

    @classmethod
    def from_json(cls, data: object) -> EgnRuleset:
        """Read ``metadata.ruleset``; an `EgnError` names the field that is wrong or
        unplayable.  A missing ruleset is EGN's defaults."""
        if data is None:
            return cls()
        if not isinstance(data, dict):
            raise EgnError(f"{WHERE}: a ruleset is an object")
        known = {f for f in cls.__dataclass_fields__} | set(UNPLAYED) | {"min_rank", "num_players"}
        for key, value in data.items():
            where = f"{WHERE}.{key}"
            if key not in known:
                raise EgnError(f"{where}: not an EGN rule")
            if key in UNPLAYED:
                if value is not False:
                    if not isinstance(value, bool):
                        raise EgnError(f"{where}: true or false, not {value!r}")
                    raise EgnError(f"{where}: {UNPLAYED[key]}: not a rule the kiosk plays")
            elif key == "min_rank" and value != 9:
                raise EgnError(f"{where}: {value!r}: the kiosk plays the 24-card pack (9 up)")
            elif key == "num_players" and value != 4:
                raise EgnError(f"{where}: {value!r}: the kiosk plays four-handed euchre")
        std = _flag(data, "std", True)
        canadian = _flag(data, "canadian", False)
        lead_name = data.get("loner_lead", "LEFT_OF_DEALER")
        if lead_name not in LONER_LEAD:
            raise EgnError(
                f"{WHERE}.loner_lead: {lead_name!r} is not LEFT_OF_DEALER or LEFT_OF_LONER"
            )
        num_deals = _count(data, "num_deals", 0)
        winning = _count(data, "winning_score", 0 if num_deals else 10)
        if "winning_score" in data and "num_deals" in data:
            raise EgnError(f"{WHERE}: winning_score and num_deals cannot both be given")
        if not winning and not num_deals:
            raise EgnError(f"{WHERE}: a game needs winning_score or num_deals to end")
        return cls(
            std=std,
            canadian=canadian,
            loner_lead=LONER_LEAD[lead_name],
            winning_score=winning,
            num_deals=num_deals,
            loner_march_score=_count(data, "loner_march_score", 4),
            loner_euchred_score=_count(data, "loner_euchred_score", 2),
        )

    def to_json(self) -> dict[str, Any]:
        """The ruleset as EGN writes it: ``std``, ``canadian`` and ``loner_lead`` always
        (as every published game does), the rest where they differ from EGN's defaults.

        >>> EgnRuleset(winning_score=7).to_json()
        {'std': True, 'canadian': False, 'loner_lead': 'LEFT_OF_DEALER', 'winning_score': 7}
        """
        lead = next(name for name, value in LONER_LEAD.items() if value is self.loner_lead)
        out: dict[str, Any] = {"std": self.std, "canadian": self.canadian, "loner_lead": lead}
        if self.num_deals:
            out["num_deals"] = self.num_deals  # EGN sets one limit: the deals win
        elif self.winning_score != 10:
            out["winning_score"] = self.winning_score
        if self.loner_march_score != 4:
            out["loner_march_score"] = self.loner_march_score
        if self.loner_euchred_score != 2:
            out["loner_euchred_score"] = self.loner_euchred_score
        return out

    def profile(self, base: RuleProfile | None = None) -> RuleProfile:
        """The rule profile these rules play under, laid over `base` (the tournament book)."""
        book = base or get_profile(DEFAULT_BASE)
        return replace(
            book,
            stick_the_dealer=self.std,
            dealer_partner_order_forces_alone=self.canadian,
            lone_lead=self.loner_lead,
            points_to_win=self.winning_score or book.points_to_win,
            hand_points=replace(
                book.hand_points,
                lone_march=self.loner_march_score,
                lone_euchred=self.loner_euchred_score,
            ),
        )

    @classmethod
    def of_profile(cls, profile: RuleProfile, points_to_win: int | None = None) -> EgnRuleset:
        """What EGN can say of a profile (the rest is the book's, named in the file's
        description).  A hand-points table EGN cannot express is a `ValueError`.

        >>> EgnRuleset.of_profile(get_profile("alberta55"), points_to_win=7).to_json()
        {'std': False, 'canadian': True, 'loner_lead': 'LEFT_OF_DEALER', 'winning_score': 7}
        """
        points = profile.hand_points
        if (points.made, points.march, points.lone_made, points.euchred) != (1, 2, 1, 2):
            raise ValueError(f"the {profile.name} hand points are not EGN's (1, 2, 1 alone, 2)")
        return cls(
            std=profile.stick_the_dealer,
            canadian=profile.dealer_partner_order_forces_alone,
            loner_lead=profile.lone_lead,
            winning_score=points_to_win or profile.points_to_win,
            loner_march_score=points.lone_march,
            loner_euchred_score=points.lone_euchred,
        )


def _flag(data: dict[str, Any], key: str, default: bool) -> bool:
    value = data.get(key, default)
    if not isinstance(value, bool):
        raise EgnError(f"{WHERE}.{key}: true or false, not {value!r}")
    return value


def _count(data: dict[str, Any], key: str, default: int) -> int:
    value = data.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise EgnError(f"{WHERE}.{key}: a whole number of at least 0, not {value!r}")
    return value
