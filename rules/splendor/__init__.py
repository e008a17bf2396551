"""اسپلندور (Splendor): gem merchants buy development cards and court nobles, two to four players."""

from rules.splendor.engine import Splendor
from rules.splendor.model import SplendorAction, SplendorOptions, SplendorState, SplendorView

__all__ = ["Splendor", "SplendorAction", "SplendorOptions", "SplendorState", "SplendorView"]
