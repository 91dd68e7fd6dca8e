"""Templates a clerk fills in: the type's header row as CSV, or an XLSX with the rules built in."""

from __future__ import annotations

import csv
from pathlib import Path

from desktop_app.domain.errors import Lang
from desktop_app.imports.import_type import ColumnSpec, ImportType, Kind
from desktop_app.imports.table_spec import text_length
from desktop_app.imports.type_parser import decimal_bounds
from desktop_app.imports.validator import FALSE_WORDS, TRUE_WORDS

FORMATS = ("csv", "xlsx")
BOM = "\ufeff"
# Excel's drop-down list written in the rule is a comma-separated text of at most 255 characters; a
# longer list, or one whose choices hold a comma or a quote, is a range of a hidden sheet instead.
LIST_LIMIT = 255


def write_template(itype: ImportType, path: Path, fmt: str = "csv", lang: Lang = "zh") -> Path:
    """Write the template; the file appears complete or not at all."""
    temp = path.with_name(path.name + ".part")
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        if fmt == "xlsx":
            _write_xlsx(itype, temp, lang)
        else:
            with temp.open("w", encoding="utf-8", newline="") as handle:
                handle.write(BOM)
                csv.writer(handle).writerow(itype.headers)
        temp.replace(path)
    finally:
        temp.unlink(missing_ok=True)
    return path


def describe_column(spec: ColumnSpec, lang: Lang = "zh") -> str:
    """A column's rules in plain words, for the template's second sheet."""
    zh = lang == "zh"
    parts: list[str] = ["必填" if zh else "required"] if spec.required else ["选填" if zh else "optional"]
    kind = spec.kind
    if kind in (Kind.TEXT, Kind.REFERENCE):
        longest = text_length(spec)
        if longest is not None:
            parts.append(f"最多 {longest} 个字符" if zh else f"at most {longest} characters")
        if spec.hint(lang):
            parts.append(spec.hint(lang).lstrip("，, "))
        if kind == Kind.REFERENCE:
            parts.append(f"须为 {spec.reference_table} 中已有的名称" if zh else f"a name in {spec.reference_table}")
    elif kind == Kind.INTEGER:
        parts.append("整数" if zh else "a whole number")
        if spec.integer_min is not None or spec.integer_max is not None:
            low = "" if spec.integer_min is None else str(spec.integer_min)
            high = "" if spec.integer_max is None else str(spec.integer_max)
            parts.append(f"范围 {low}…{high}" if zh else f"from {low} to {high}")
    elif kind == Kind.DECIMAL:
        parts.append(
            f"数字，最多 {spec.decimal_scale} 位小数" if zh else f"a number, at most {spec.decimal_scale} decimals"
        )
        # both bounds left open (the parser filled them with what the column holds): no range to tell
        if (spec.decimal_min, spec.decimal_max) != decimal_bounds(spec.decimal_scale or 0, None, None):
            low = "" if spec.decimal_min is None else format(spec.decimal_min, "f")
            high = "" if spec.decimal_max is None else format(spec.decimal_max, "f")
            parts.append(f"范围 {low}…{high}" if zh else f"from {low} to {high}")
    elif kind == Kind.DATE:
        parts.append("日期，如 2024-03-05 或 2024/3/5" if zh else "a date such as 2024-03-05 or 2024/3/5")
    elif kind == Kind.DATETIME:
        parts.append("日期时间，如 2024-03-05 14:30" if zh else "a date and time such as 2024-03-05 14:30")
    elif kind == Kind.BOOLEAN:
        parts.append("是/否" if zh else "yes/no")
    elif kind == Kind.ENUM:
        parts.append(("可选：" if zh else "one of: ") + "/".join(spec.enum_inputs))
    if spec.default is not None:
        shown = spec.input_for(spec.default) if kind == Kind.ENUM else spec.default
        parts.append(f"留空时为 {shown}" if zh else f"{shown} when left blank")
    return ("；" if zh else "; ").join(parts)


def _choices(spec: ColumnSpec, lang: Lang) -> list[str] | None:
    if spec.kind == Kind.ENUM:
        return list(spec.enum_inputs)
    if spec.kind == Kind.BOOLEAN:
        choices = ["是", "否"] if lang == "zh" else ["yes", "no"]
        assert {c.casefold() for c in choices} <= TRUE_WORDS | FALSE_WORDS  # the validator takes them
        return choices
    return None


def _write_xlsx(itype: ImportType, path: Path, lang: Lang) -> None:
    from openpyxl import Workbook
    from openpyxl.comments import Comment
    from openpyxl.styles import Font, PatternFill
    from openpyxl.utils import get_column_letter, quote_sheetname
    from openpyxl.worksheet.datavalidation import DataValidation

    zh = lang == "zh"
    book = Workbook()
    sheet = book.active
    sheet.title = itype.title(lang)[:31] or itype.name
    bold = Font(bold=True)
    required_fill = PatternFill("solid", fgColor="FFF2CC")
    lists = None  # the hidden sheet of the long lists, made when one is needed
    for number, spec in enumerate(itype.columns, start=1):
        cell = sheet.cell(row=1, column=number, value=spec.header)
        cell.font = bold
        letter = get_column_letter(number)
        sheet.column_dimensions[letter].width = max(12, min(40, 2 * len(spec.header) + 4))
        if spec.required:
            cell.fill = required_fill
            cell.comment = Comment("必填" if zh else "Required", "BatchDesk")
        if spec.kind in (Kind.TEXT, Kind.REFERENCE, Kind.ENUM):
            # text-formatted columns keep leading zeros and long digit strings (phones, codes)
            sheet.column_dimensions[letter].number_format = "@"
        choices = _choices(spec, lang)
        if choices:
            if len(",".join(choices)) <= LIST_LIMIT and not any("," in c or '"' in c for c in choices):
                formula = '"' + ",".join(choices) + '"'
            else:
                if lists is None:
                    lists = book.create_sheet("lists")
                    lists.sheet_state = "hidden"
                for row, choice in enumerate(choices, start=1):
                    item = lists.cell(row=row, column=number, value=choice)
                    item.data_type = "s"  # a choice such as "=A1" stays text, never a formula
                formula = f"{quote_sheetname(lists.title)}!${letter}$1:${letter}${len(choices)}"
            rule = DataValidation(type="list", formula1=formula, allow_blank=True)
            rule.error = "请从列表中选择" if zh else "Choose a value from the list"
            rule.errorTitle = spec.label(lang)
            sheet.add_data_validation(rule)
            rule.add(f"{letter}2:{letter}1048576")
    sheet.freeze_panes = "A2"
    rules = book.create_sheet("说明" if zh else "Rules")
    heading = ["列", "说明", "规则"] if zh else ["Column", "Meaning", "Rules"]
    rules.append(heading)
    for cell in rules[1]:
        cell.font = bold
    for spec in itype.columns:
        rules.append([spec.header, spec.label(lang), describe_column(spec, lang)])
    rules.column_dimensions["A"].width = 20
    rules.column_dimensions["B"].width = 20
    rules.column_dimensions["C"].width = 80
    if lists is not None:  # last: the clerk's sheets come first
        book.move_sheet(lists, offset=len(book.worksheets) - 1 - book.index(lists))
    book.save(path)
