"""One error type for bad user input, so the CLI can turn it into exit code 2."""


class InputError(Exception):
    """A file, option or state given by the user is wrong.

    The message must name what is wrong and where (file, line or key) and what
    was expected; the CLI prints it as one paragraph and exits with code 2.
    """

    def __init__(self, message: str, where: str | None = None):
        self.where = where
        super().__init__(f"{where}: {message}" if where else message)
