"""zettasim's exceptions."""


class InputError(ValueError):
    """Bad input: a malformed file, an unknown key, a wrong unit or an impossible configuration.

    ``str(error)`` is the line the command line prints after ``zettasim: error:`` (and exits 2 with);
    ``file`` names the file, ``path`` the JSON pointer in it (empty for the whole file) and ``expected``
    what was expected there.
    """

    def __init__(self, text: str, file: str, path: str, expected: str):
        super().__init__(text)
        self.file = file
        self.path = path
        self.expected = expected
