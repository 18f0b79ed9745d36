"""The small Markdown the reports write (headings, pipe tables, quotes, lists, `code`, **bold**, _emphasis_)
turned into HTML, so a section written once for summary.md reads the same in report.html.

Every piece of text is HTML-escaped before any markup is added: a cell holding text from the system
under test stays text.
"""

from __future__ import annotations

import re
from html import escape

_INLINE = re.compile(r"`([^`]+)`|\*\*(.+?)\*\*")
_UNESCAPE = re.compile(r"\\([\\`*_\[\]<>|!#{}()+\-.])")
_SPLIT_CELLS = re.compile(r"(?<!\\)\|")


def inline(text: str) -> str:
    """One line of Markdown as escaped HTML with its `code` and **bold** spans."""
    out: list[str] = []
    position = 0
    for match in _INLINE.finditer(text):
        out.append(_plain(text[position : match.start()]))
        if match.group(1) is not None:
            out.append(f"<code>{escape(match.group(1))}</code>")
        else:
            out.append(f"<strong>{inline(match.group(2))}</strong>")
        position = match.end()
    out.append(_plain(text[position:]))
    return "".join(out)


def _plain(text: str) -> str:
    return escape(_UNESCAPE.sub(r"\1", text))


def _emphasised(line: str) -> str:
    stripped = line.strip()
    if len(stripped) > 2 and stripped.startswith("_") and stripped.endswith("_"):
        return f"<em>{inline(stripped[1:-1])}</em>"
    return inline(stripped)


def _cells(line: str) -> list[str]:
    body = line.strip()
    body = body[1:] if body.startswith("|") else body
    body = body[:-1] if body.endswith("|") and not body.endswith("\\|") else body
    return [cell.strip() for cell in _SPLIT_CELLS.split(body)]


def _table(lines: list[str]) -> str:
    header, separator, *rows = lines
    aligns = ["right" if cell.endswith(":") else "left" for cell in _cells(separator)]

    def row(cells: list[str], tag: str) -> str:
        return (
            "<tr>"
            + "".join(
                f'<{tag} class="{aligns[i] if i < len(aligns) else "left"}">{inline(cell)}</{tag}>'
                for i, cell in enumerate(cells)
            )
            + "</tr>"
        )

    body = "".join(row(_cells(r), "td") for r in rows)
    return f'<div class="scroll"><table><thead>{row(_cells(header), "th")}</thead><tbody>{body}</tbody></table></div>'


def to_html(lines: list[str], *, heading_offset: int = 0) -> str:
    """Markdown lines to HTML. `heading_offset` demotes headings (## in summary.md may be h3 here)."""
    out: list[str] = []
    index = 0
    while index < len(lines):
        line = lines[index]
        stripped = line.strip()
        if not stripped:
            index += 1
            continue
        if stripped.startswith("|") and index + 1 < len(lines) and set(lines[index + 1].strip()) <= set("|-: "):
            block = []
            while index < len(lines) and lines[index].strip().startswith("|"):
                block.append(lines[index])
                index += 1
            out.append(_table(block))
            continue
        heading = re.match(r"(#{1,6})\s+(.*)", stripped)
        if heading:
            level = min(6, len(heading.group(1)) + heading_offset)
            out.append(f"<h{level}>{inline(heading.group(2))}</h{level}>")
        elif stripped.startswith(">"):
            out.append(f"<blockquote>{_emphasised(stripped.lstrip('>').strip())}</blockquote>")
        elif stripped.startswith("- "):
            items = []
            while index < len(lines) and lines[index].strip().startswith("- "):
                items.append(f"<li>{_emphasised(lines[index].strip()[2:])}</li>")
                index += 1
            out.append("<ul>" + "".join(items) + "</ul>")
            continue
        else:
            out.append(f"<p>{_emphasised(stripped)}</p>")
        index += 1
    return "\n".join(out)
