package dev.cairn.api.tokens;

import java.time.OffsetDateTime;
import java.util.List;

import io.swagger.v3.oas.annotations.media.Schema;

/** What clients send to make tokens, and what they get back. */
final class TokenRequests {

    private TokenRequests() {}

    /** A token to make. */
    @Schema(description = "A token to make")
    record NewToken(
            @Schema(
                    description = "the email of the user the token acts as; left out or null: the caller",
                    example = "alice@example.org",
                    nullable = true)
            String user,

            @Schema(
                    description = "what the token is for",
                    example = "laptop",
                    requiredMode = Schema.RequiredMode.REQUIRED)
            String name,

            @Schema(
                    description = "read, submit and/or admin",
                    example = "[\"submit\"]",
                    requiredMode = Schema.RequiredMode.REQUIRED)
            List<String> roles,

            @Schema(
                    description = "when it stops working (ISO 8601, in the future); left out or null: never",
                    example = "2027-01-01T00:00:00Z",
                    nullable = true)
            OffsetDateTime expires) {}

    /** A token just made, with its secret: the only time the secret is shown. */
    @Schema(description = "A token just made, with its secret: the only time the secret is shown", example = """
                    {"token": {"uuid": "0191d3a5-7b7e-7c1a-9f00-1c2d3e4f5a6b", "user": "alice@example.org",
                     "name": "laptop", "roles": ["submit"], "created": "2026-11-24T10:15:30.123+00:00",
                     "expires": null, "lastUsed": null, "revoked": null, "valid": true},
                     "secret": "cairn_9sC0mv0h2H1t8f1b0Jx1n4cKq5M6f0b3Y2y1Lr3m5Xc"}""")
    record IssuedToken(
            TokenView token,

            @Schema(description = "the bearer token: Authorization: Bearer <secret>")
            String secret) {}
}
