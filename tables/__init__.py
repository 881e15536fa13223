"""Tables shipped with gonuts-solve (installed as ``solver.tables``); see README.md here."""
