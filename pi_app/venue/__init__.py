"""A venue of several tables run as one tournament by a director node, over an MQTT broker.

Built so far: the venue's configuration (:mod:`pi_app.venue.config`), the messages'
codec with its once-only inbox (:mod:`pi_app.venue.messages`), Mosquitto's files and a
local broker (:mod:`pi_app.venue.broker`) and a node's link to it
(:mod:`pi_app.venue.link`).  The seating rules are pure, in :mod:`engine.tournament.seating`, :mod:`engine.tournament.balancing` and
:mod:`engine.tournament.breaking`; the topics are designed in docs/design/venue-topics.md.
"""
