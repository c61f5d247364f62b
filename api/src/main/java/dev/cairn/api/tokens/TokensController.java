package dev.cairn.api.tokens;

import java.net.URI;
import java.util.UUID;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.ExampleObject;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import dev.cairn.api.security.CurrentUser;
import dev.cairn.api.security.TokenService;
import dev.cairn.api.tokens.TokenRequests.IssuedToken;
import dev.cairn.api.tokens.TokenRequests.NewToken;
import dev.cairn.api.web.Page;

/** The API's bearer tokens: made (the secret shown once), listed and shown without secrets, revoked. */
@RestController
@RequestMapping("/api/v1/tokens")
@Tag(
        name = "tokens",
        description = "Bearer tokens: random, stored only as a hash, shown once, each acting as a user with roles;"
                + " everything needs the role admin")
class TokensController {

    private static final String UUID_PARAM = "the token's uuid (not its secret)";

    private final TokenService tokens;

    TokensController(TokenService tokens) {
        this.tokens = tokens;
    }

    @PostMapping
    @Operation(
            operationId = "createToken",
            summary = "Make a token",
            description = "A token acting as the user named (the caller by default) with the roles given. The"
                    + " answer carries the secret, which is not stored and is never shown again: keep it.",
            requestBody =
                    @io.swagger.v3.oas.annotations.parameters.RequestBody(
                            content =
                                    @Content(
                                            schema = @Schema(implementation = NewToken.class),
                                            examples =
                                                    @ExampleObject(
                                                            value =
                                                                    "{\"user\": \"alice@example.org\", \"name\": \"laptop\","
                                                                            + " \"roles\": [\"submit\"], \"expires\": \"2027-01-01T00:00:00Z\"}"))),
            responses = @ApiResponse(responseCode = "201", description = "the token and its secret"))
    ResponseEntity<IssuedToken> create(@RequestBody NewToken body) {
        TokenService.Issued issued =
                tokens.issue(body.user(), CurrentUser.id(), body.name(), body.roles(), body.expires());
        return ResponseEntity.created(
                        URI.create("/api/v1/tokens/" + issued.token().uuid()))
                .body(new IssuedToken(TokenView.of(issued.token()), issued.secret()));
    }

    @GetMapping
    @Operation(
            operationId = "listTokens",
            summary = "List tokens",
            description = "Every token, or one user's, newest first, revoked and expired ones too; never a secret.")
    Page<TokenView> list(
            @Parameter(description = "only this user's tokens (an email)", example = "alice@example.org")
                    @RequestParam(name = "user", required = false)
                    String user) {
        return new Page<>(tokens.list(user).stream().map(TokenView::of).toList(), null, null);
    }

    @GetMapping("/{uuid}")
    @Operation(operationId = "showToken", summary = "Show a token", description = "The token, without its secret.")
    TokenView show(
            @Parameter(description = UUID_PARAM, example = "0191d3a5-7b7e-7c1a-9f00-1c2d3e4f5a6b") @PathVariable("uuid")
                    UUID uuid) {
        return TokenView.of(tokens.show(uuid));
    }

    // A revoked token is kept, shown and listed as revoked, so that who could act when stays on record:
    // revoking is a change of state, not a DELETE, after which the token would have to be gone.
    @PostMapping("/{uuid}/revoke")
    @Operation(
            operationId = "revokeToken",
            summary = "Revoke a token",
            description = "The token stops working at once (servers that remember it for a few seconds refuse it"
                    + " within them); it stays listed and shown, revoked. Revoking it again changes nothing.")
    TokenView revoke(
            @Parameter(description = UUID_PARAM, example = "0191d3a5-7b7e-7c1a-9f00-1c2d3e4f5a6b") @PathVariable("uuid")
                    UUID uuid) {
        return TokenView.of(tokens.revoke(uuid));
    }
}
