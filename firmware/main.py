"""Boot entry on the reference tower (OpenMV Cam H7 Plus): run the tower forever."""

from board_openmv import Board
from tower.app import TowerApp

TowerApp(Board()).run_forever()
