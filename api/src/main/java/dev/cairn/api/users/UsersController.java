package dev.cairn.api.users;

import java.net.URI;
import java.nio.charset.StandardCharsets;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.ExampleObject;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PatchMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.util.UriUtils;

import dev.cairn.api.users.UserRequests.NewUser;
import dev.cairn.api.users.UserRequests.UserPatch;
import dev.cairn.api.web.Page;

/** The users of the installation, named by email. */
@RestController
@RequestMapping("/api/v1/users")
@Tag(name = "users", description = "The people nodes, groups and tokens belong to; everything needs the role admin")
class UsersController {

    private static final String EMAIL = "the user's email";

    private final UserService users;

    UsersController(UserService users) {
        this.users = users;
    }

    @GetMapping
    @Operation(
            operationId = "listUsers",
            summary = "List the users",
            description = "Every user, by email, in one page; the default user is marked.")
    Page<UserView> list() {
        return new Page<>(users.list(), null, null);
    }

    @GetMapping("/{email}")
    @Operation(operationId = "showUser", summary = "Show a user")
    UserView show(@Parameter(description = EMAIL, example = "alice@example.org") @PathVariable("email") String email) {
        return users.show(email);
    }

    @PostMapping
    @Operation(
            operationId = "createUser",
            summary = "Add a user",
            description =
                    "A user who may then own tokens, nodes and groups. The email must look like one" + " (name@host).",
            requestBody =
                    @io.swagger.v3.oas.annotations.parameters.RequestBody(
                            content =
                                    @Content(
                                            schema = @Schema(implementation = NewUser.class),
                                            examples =
                                                    @ExampleObject(
                                                            value =
                                                                    "{\"email\": \"alice@example.org\", \"firstName\": \"Alice\","
                                                                            + " \"lastName\": \"Liddell\", \"institution\": \"EPFL\"}"))),
            responses = {
                @ApiResponse(responseCode = "201", description = "the user, added"),
                @ApiResponse(responseCode = "409", description = "a user has the email already")
            })
    ResponseEntity<UserView> create(@RequestBody NewUser body) {
        UserView user = users.create(body);
        return ResponseEntity.created(
                        URI.create("/api/v1/users/" + UriUtils.encodePathSegment(user.email(), StandardCharsets.UTF_8)))
                .body(user);
    }

    @PatchMapping("/{email}")
    @Operation(
            operationId = "changeUser",
            summary = "Change a user's names",
            description = "Changes the first and last name and the institution; what the body leaves out stays."
                    + " The email is the user's identity and does not change.",
            requestBody =
                    @io.swagger.v3.oas.annotations.parameters.RequestBody(
                            content =
                                    @Content(
                                            schema = @Schema(implementation = UserPatch.class),
                                            examples = @ExampleObject(value = "{\"lastName\": \"Hargreaves\"}"))))
    UserView change(
            @Parameter(description = EMAIL, example = "alice@example.org") @PathVariable("email") String email,
            @RequestBody UserPatch body) {
        return users.change(email, body);
    }
}
