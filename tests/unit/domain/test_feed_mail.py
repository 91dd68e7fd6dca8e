"""A feed's mail addresses: a list as people type it, each checked, each once; the first bad one named."""

from __future__ import annotations

import pytest

from desktop_app.domain.errors import ErrorCode, PermanentError
from desktop_app.domain.feed_mail import parse_addresses


def test_addresses_are_split_on_commas_semicolons_and_spaces_each_once() -> None:
    assert parse_addresses(" a@x.com, b@y.co.uk;c.d+e@x.com  A@X.com ") == ("a@x.com", "b@y.co.uk", "c.d+e@x.com")
    assert parse_addresses(["a@x.com", "b@y.com"]) == ("a@x.com", "b@y.com")
    assert parse_addresses("") == () and parse_addresses(None) == () and parse_addresses(" , ") == ()


@pytest.mark.parametrize("bad", ["boss", "boss@bank", "@bank.example", "a@@b.com", "a@b.", "<a@b.com>", "a@b.com."])
def test_the_first_address_that_is_not_one_is_named(bad: str) -> None:
    with pytest.raises(PermanentError) as caught:
        parse_addresses(f"ok@bank.example, {bad}, also@bad")
    assert caught.value.code is ErrorCode.MAIL_ADDRESS_INVALID and caught.value.params["address"] == bad
    assert f'"{bad}" is not a valid mail address' in caught.value.text("en")
    assert f"“{bad}”不是有效的邮件地址" in caught.value.text("zh")


def test_too_many_addresses_are_refused() -> None:
    with pytest.raises(PermanentError) as caught:
        parse_addresses([f"clerk{i}@bank.example" for i in range(51)])
    assert caught.value.code is ErrorCode.INVALID_PARAMS
