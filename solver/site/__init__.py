"""The web page's build: the page's data from the rules and the tables (``pagegames``, ``pagevalues``,
``pagedata``), the HTML of the single file (``webpage``), the installable site (``website``, ``icons``), the
page's values read back for the command line (``pagetable``), and the page itself (``web/``: its ES modules, the
committed bundles, the WebAssembly kernel, the message catalogues). ``solver.play`` is the game logic the page
and the command line share."""
