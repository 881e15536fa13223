"""Tables shipped with gonuts-solve (installed as ``solver.shipped``); see README.md here."""
