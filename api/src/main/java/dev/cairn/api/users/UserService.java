package dev.cairn.api.users;

import java.util.List;
import java.util.Optional;

import org.springframework.stereotype.Service;

import dev.cairn.api.users.UserRequests.NewUser;
import dev.cairn.api.users.UserRequests.UserPatch;
import dev.cairn.storage.Storage;
import dev.cairn.storage.errors.NotFoundException;
import dev.cairn.storage.graph.users.User;
import dev.cairn.storage.graph.users.UserStore;

/**
 * The users of the installation, for every surface of the server: listed (with which one is the default,
 * the owner of what is made without naming a user), shown, made and changed. A user is named by email,
 * which does not change.
 */
@Service
class UserService {

    private final UserStore users;

    UserService(Storage storage) {
        this.users = storage.users();
    }

    /** Every user. */
    public List<UserView> list() {
        Optional<Long> byDefault = users.defaultUser().map(User::id);
        return users.list().stream()
                .map(u -> UserView.of(u, byDefault.equals(Optional.of(u.id()))))
                .toList();
    }

    /** The user with this email; a 404 that names some of the users when there is none. */
    public UserView show(String email) {
        return view(find(email));
    }

    public UserView create(NewUser body) {
        return view(users.create(body.email(), body.firstName(), body.lastName(), body.institution()));
    }

    /** Changes the names and institution given; the others stay. */
    public UserView change(String email, UserPatch body) {
        User user = find(email);
        return view(users.update(user.id(), body.firstName(), body.lastName(), body.institution()));
    }

    private User find(String email) {
        return users.findByEmail(email)
                .orElseThrow(() -> new NotFoundException("no user has the email '" + email + "'; the users are "
                        + users.list().stream().map(User::email).limit(20).toList()));
    }

    private UserView view(User user) {
        return UserView.of(user, users.defaultUser().map(User::id).equals(Optional.of(user.id())));
    }
}
