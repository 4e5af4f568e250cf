"""Vision: pure image -> observations (no camera, no clock; I/O only in ``storage``).

Cards:

* ``decks``       -- the stand-in decks of the four card games: card ids and printed properties
* ``cardart``     -- our own card-face art drawn from that data
* ``scene``       -- the table-scene renderer (frames + ground truth) for the simulated camera
* ``calibration`` -- ArUco markers, pixel <-> table-mm homography, moved-camera check
* ``zones``       -- trick area, discard piles, reveal spot, seats, in table millimetres
* ``finder``      -- card outlines, merged blobs, corner and side hypotheses
* ``corners``     -- card rectangles in table mm from right-angled corners, fitted to edges
* ``templates``   -- enrolled faces on the millimetre grid (reflectance, cells, index corners)
* ``match``       -- one hypothesis against the templates: the decision, or an abstention
* ``identify``    -- enrolled decks, identification with abstention (``read_cards``)
* ``enroll``      -- enrollment from a folder of images or a guided camera walk
* ``tracker``     -- stable ``CardEvent`` s from frame-by-frame sightings
* ``watch``       -- frames -> events: finder, identifier, calibration and tracker together
* ``storage``     -- enrolled decks and the calibration in the data directory
* ``reader``      -- the service's card reader (``make_frame_reader``): storage + watch

Dice: the ``dice*`` modules.
"""
