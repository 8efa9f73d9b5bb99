from ... import helper
