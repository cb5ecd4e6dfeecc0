"""A Streamable HTTP server built with the official SDK that demands OAuth (its own
authorization server: discovery, dynamic registration, PKCE, refresh), for the login tests.

    python oauth_server.py PORT [--token-life SECONDS]

The authorization page approves at once (a user who clicked "Allow"): it redirects to the
client's redirect URI with the code.  Tokens live in memory; ``--token-life`` makes access
tokens expire soon, so a refresh must happen.
"""
from __future__ import annotations

import secrets
import sys
import time

from mcp.server.auth.provider import (AccessToken, AuthorizationCode, AuthorizationParams, RefreshToken,
                                      construct_redirect_uri)
from mcp.server.auth.settings import AuthSettings, ClientRegistrationOptions
from mcp.server.mcpserver import Context, MCPServer
from mcp.shared.auth import OAuthClientInformationFull, OAuthToken


class Provider:
    def __init__(self, token_life: int) -> None:
        self.token_life = token_life
        self.clients: dict = {}
        self.codes: dict = {}
        self.access: dict = {}
        self.refresh: dict = {}

    async def get_client(self, client_id: str):
        return self.clients.get(client_id)

    async def register_client(self, client_info: OAuthClientInformationFull) -> None:
        self.clients[client_info.client_id] = client_info

    async def authorize(self, client, params: AuthorizationParams) -> str:
        code = AuthorizationCode(code=secrets.token_urlsafe(16), scopes=params.scopes or ["notes"],
                                 expires_at=time.time() + 300, client_id=client.client_id,
                                 code_challenge=params.code_challenge, redirect_uri=params.redirect_uri,
                                 redirect_uri_provided_explicitly=params.redirect_uri_provided_explicitly,
                                 resource=params.resource, subject="ada")
        self.codes[code.code] = code
        return construct_redirect_uri(str(params.redirect_uri), code=code.code, state=params.state)

    async def load_authorization_code(self, client, authorization_code: str):
        return self.codes.get(authorization_code)

    async def exchange_authorization_code(self, client, authorization_code) -> OAuthToken:
        self.codes.pop(authorization_code.code, None)
        return self._issue(client.client_id, authorization_code.scopes, authorization_code.resource)

    async def load_refresh_token(self, client, refresh_token: str):
        return self.refresh.get(refresh_token)

    async def exchange_refresh_token(self, client, refresh_token, scopes) -> OAuthToken:
        self.refresh.pop(refresh_token.token, None)
        return self._issue(client.client_id, scopes or refresh_token.scopes, refresh_token.resource)

    async def load_access_token(self, token: str):
        found = self.access.get(token)
        if found is not None and found.expires_at is not None and found.expires_at < time.time():
            return None
        return found

    async def revoke_token(self, token) -> None:
        self.access.pop(token.token, None)
        self.refresh.pop(token.token, None)

    def _issue(self, client_id: str, scopes: list, resource) -> OAuthToken:
        access, refresh = "at-" + secrets.token_urlsafe(16), "rt-" + secrets.token_urlsafe(16)
        self.access[access] = AccessToken(token=access, client_id=client_id, scopes=scopes,
                                          expires_at=int(time.time()) + self.token_life, resource=resource,
                                          subject="ada")
        self.refresh[refresh] = RefreshToken(token=refresh, client_id=client_id, scopes=scopes,
                                             resource=resource, subject="ada")
        return OAuthToken(access_token=access, token_type="Bearer", expires_in=self.token_life,
                          refresh_token=refresh, scope=" ".join(scopes))


def main(argv: list) -> None:
    port = int(argv[0])
    life = int(argv[argv.index("--token-life") + 1]) if "--token-life" in argv else 3600
    base = f"http://127.0.0.1:{port}"
    server = MCPServer("notes-oauth", auth_server_provider=Provider(life),
                       auth=AuthSettings(issuer_url=base, resource_server_url=f"{base}/mcp",
                                         validate_token_resource=True,
                                         client_registration_options=ClientRegistrationOptions(
                                             enabled=True, valid_scopes=["notes"], default_scopes=["notes"]),
                                         required_scopes=["notes"]))

    @server.tool()
    def whoami(ctx: Context) -> str:
        """Who the token belongs to."""
        return "signed in"

    server.settings.log_level = "WARNING"
    server.run("streamable-http", host="127.0.0.1", port=port)


if __name__ == "__main__":
    main(sys.argv[1:])
