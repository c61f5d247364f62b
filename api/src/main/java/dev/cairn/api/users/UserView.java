package dev.cairn.api.users;

import io.swagger.v3.oas.annotations.media.Schema;

import dev.cairn.storage.graph.users.User;

/** A user as the API shows it. */
@Schema(description = "A user: the email is the identity", example = """
                {"email": "alice@example.org", "firstName": "Alice", "lastName": "Liddell",
                 "institution": "EPFL", "isDefault": false}""")
record UserView(
        String email,
        String firstName,
        String lastName,
        String institution,

        @Schema(description = "whether this is the default user, who owns what is made without naming a user")
        boolean isDefault) {

    static UserView of(User u, boolean isDefault) {
        return new UserView(u.email(), u.firstName(), u.lastName(), u.institution(), isDefault);
    }
}
