package dev.cairn.api.tokens;

import java.time.OffsetDateTime;
import java.util.List;
import java.util.UUID;

import io.swagger.v3.oas.annotations.media.Schema;

import dev.cairn.api.security.Role;
import dev.cairn.api.security.Token;

/** A token as the API shows it: never its secret. */
@Schema(description = "A bearer token, without its secret", example = """
                {"uuid": "0191d3a5-7b7e-7c1a-9f00-1c2d3e4f5a6b", "user": "alice@example.org",
                 "name": "laptop", "roles": ["submit"], "created": "2026-11-24T10:15:30.123+00:00",
                 "expires": "2027-01-01T00:00:00Z", "lastUsed": null, "revoked": null, "valid": true}""")
record TokenView(
        UUID uuid,

        @Schema(description = "the email of the user the token acts as")
        String user,

        @Schema(description = "what the token is for") String name,

        @Schema(description = "read, submit, admin; each includes the ones before it")
        List<String> roles,

        OffsetDateTime created,

        @Schema(description = "when it stops working; null: never", nullable = true)
        OffsetDateTime expires,

        @Schema(description = "when a request last came with it (at most a minute off); null: never", nullable = true)
        OffsetDateTime lastUsed,

        @Schema(description = "when it was revoked; null: it was not", nullable = true)
        OffsetDateTime revoked,

        @Schema(description = "whether it works now: not revoked, not expired")
        boolean valid) {

    static TokenView of(Token t) {
        return new TokenView(
                t.uuid(),
                t.userEmail(),
                t.name(),
                t.roles().stream().sorted().map(Role::value).toList(),
                t.created(),
                t.expires(),
                t.lastUsed(),
                t.revoked(),
                t.isValidAt(OffsetDateTime.now()));
    }
}
