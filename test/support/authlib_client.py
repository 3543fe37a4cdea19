"""An independent OAuth 2.0 client (Authlib, from PyPI) against Verdict's authorization server.

Given a member's session cookie, it runs the whole code + PKCE flow as an application would:
builds the authorization URL, plays the browser (consent page) with requests, exchanges the code,
calls /v1 with the access token, refreshes, replays the old refresh token, and revokes. It prints
one JSON document of what it saw; the Jest suite judges it.
"""

import json
import os
import re
import sys
from urllib.parse import urljoin

import requests
from authlib.common.security import generate_token
from authlib.integrations.requests_client import OAuth2Session

base, client_id, client_secret, redirect_uri, session_cookie = sys.argv[1:6]
os.environ["AUTHLIB_INSECURE_TRANSPORT"] = "1"  # plain http on loopback, in tests only

meta = requests.get(f"{base}/.well-known/oauth-authorization-server/auth", timeout=10).json()
client = OAuth2Session(
    client_id,
    client_secret,
    scope="read:evaluations read:org",
    redirect_uri=redirect_uri,
    code_challenge_method="S256",
    token_endpoint_auth_method="client_secret_post",
)
verifier = generate_token(64)
url, state = client.create_authorization_url(meta["authorization_endpoint"], code_verifier=verifier)

browser = requests.Session()
name, value = session_cookie.split("=", 1)
browser.cookies.set(name, value)


def follow(res):
    """Follows redirects until the application's redirect URI (nobody listens there) or a page."""
    for _ in range(10):
        location = res.headers.get("location")
        if not (300 <= res.status_code < 400 and location):
            return None, res
        target = urljoin(res.url, location)
        if target.startswith(redirect_uri):
            return target, res
        res = browser.get(target, allow_redirects=False, timeout=10)
    raise RuntimeError("too many redirects")


_, consent = follow(browser.get(url, allow_redirects=False, timeout=10))
action = re.search(r'action="([^"]+/confirm)"', consent.text).group(1)
csrf = re.search(r'name="csrf_token" value="([^"]+)"', consent.text).group(1)
callback, _ = follow(
    browser.post(urljoin(base, action), data={"csrf_token": csrf}, allow_redirects=False, timeout=10)
)

token = client.fetch_token(meta["token_endpoint"], authorization_response=callback, code_verifier=verifier)


def api(access_token):
    return requests.get(
        f"{base}/v1/evaluations", headers={"Authorization": f"Bearer {access_token}"}, timeout=10
    ).status_code


first_call = api(token["access_token"])
refreshed = client.refresh_token(meta["token_endpoint"], refresh_token=token["refresh_token"])
after_refresh = api(refreshed["access_token"])
revoked = client.revoke_token(
    meta["revocation_endpoint"], token=refreshed["access_token"], token_type_hint="access_token"
)
after_revoke = api(refreshed["access_token"])

print(
    json.dumps(
        {
            "token_type": token["token_type"],
            "scope": token.get("scope"),
            "access_token": token["access_token"],
            "refresh_token": token["refresh_token"],
            "rotated": refreshed["refresh_token"] != token["refresh_token"],
            "first_call": first_call,
            "after_refresh": after_refresh,
            "revoke_status": revoked.status_code,
            "after_revoke": after_revoke,
        }
    )
)
