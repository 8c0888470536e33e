"""A Markdown report as one self-contained HTML page: the same text, tables and plots, nothing fetched.

The Markdown is rendered by markdown-it-py (CommonMark with tables) rather than by
hand; each plot the report shows as a PNG next to it is inlined as a base64 data
URI, so the page can be mailed or opened offline. Links to other files (plan
pages) stay relative, so they work while the page sits in its folder.
"""
from __future__ import annotations

import base64
import pathlib
import re

from solver.report.plan_pages import page_start

REPORT_CSS = "img{max-width:100%;height:auto}td,th{white-space:nowrap}"


def markdown_page(title: str, markdown: str, folder: pathlib.Path) -> str:
    """`markdown` as HTML; every `![..](NAME.png)` of a PNG in `folder` is inlined."""
    from markdown_it import MarkdownIt

    body = MarkdownIt("commonmark", {"html": False}).enable("table").render(markdown)

    def inline(match: re.Match) -> str:
        png = folder / match.group(1)
        if "/" in match.group(1) or not png.is_file():
            return match.group(0)
        return 'src="data:image/png;base64,' + base64.b64encode(png.read_bytes()).decode("ascii") + '"'

    body = re.sub(r'src="([^"]+\.png)"', inline, body)
    head = "".join(page_start(title, heading=False)).replace("</style>", REPORT_CSS + "</style>")
    return head + body + "</body></html>\n"
