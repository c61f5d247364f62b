package dev.cairn.api.computers;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.springframework.stereotype.Service;

import dev.cairn.engine.Engine;
import dev.cairn.engine.computers.ComputerTypes;
import dev.cairn.storage.Storage;
import dev.cairn.storage.errors.InvalidInputException;
import dev.cairn.storage.graph.computers.AuthInfo;
import dev.cairn.storage.graph.computers.AuthInfoStore;
import dev.cairn.storage.graph.computers.Computer;
import dev.cairn.storage.graph.computers.ComputerSpec;
import dev.cairn.storage.graph.computers.ComputerStore;
import dev.cairn.storage.graph.users.User;
import dev.cairn.storage.graph.users.UserStore;

/**
 * The computers calculation jobs run on, for every surface of the server: set up after the engine checked
 * them, listed, shown with who has them enabled, configured, deleted while no node names them, enabled or
 * disabled per user (authinfo), and tested through the engine's transports. A computer is named by its
 * label or uuid ({@link ComputerRefs}); each view is seen by a user, for whom it tells whether it is enabled.
 */
@Service
class ComputerService {

    private final Engine engine;
    private final ComputerStore computers;
    private final AuthInfoStore authInfos;
    private final UserStore users;
    private final ComputerRefs refs;

    ComputerService(Engine engine, Storage storage, ComputerRefs refs) {
        this.engine = engine;
        this.computers = storage.computers();
        this.authInfos = storage.authInfos();
        this.users = storage.users();
        this.refs = refs;
    }

    /** Stores the computer {@code body} describes once the engine has checked it; nothing is stored otherwise. */
    public ComputerView create(NewComputer body, long viewer) {
        if (body.settings() == null) {
            throw new InvalidInputException("field 'settings' is required: at least {\"workdir\": \"/absolute/path\"}");
        }
        ComputerSpec spec = new ComputerSpec(
                body.label(),
                body.hostname(),
                body.description(),
                body.transportType(),
                body.schedulerType(),
                body.settings());
        ComputerTypes.check(spec);
        return view(computers.create(spec), viewer);
    }

    /** Every computer, by label. */
    public List<ComputerView> list(long viewer) {
        return computers.list().stream().map(c -> view(c, viewer)).toList();
    }

    /** The computer {@code ref} names. */
    public ComputerView show(String ref, long viewer) {
        return view(refs.inPath(ref), viewer);
    }

    /** Deletes the computer {@code ref} names and its per-user settings, as long as no node names it. */
    public void delete(String ref) {
        computers.delete(refs.inPath(ref).id());
    }

    /** Replaces the computer's transport parameters (its setting {@code transport_params}), checked as at set-up. */
    public ComputerView configure(String ref, Map<String, Object> params, long viewer) {
        if (params == null) {
            throw new InvalidInputException("the body is required: the transport parameters, an object");
        }
        Computer computer = refs.inPath(ref);
        Map<String, Object> settings = new LinkedHashMap<>(computer.metadata());
        settings.put("transport_params", params);
        ComputerTypes.check(new ComputerSpec(
                computer.label(),
                computer.hostname(),
                computer.description(),
                computer.transportType(),
                computer.schedulerType(),
                settings));
        return view(computers.setMetadata(computer.id(), settings), viewer);
    }

    /** Enables (or disables) the computer for the user with {@code email}, or for {@code caller} when null. */
    public Access setEnabled(String ref, String email, long caller, boolean enabled) {
        Computer computer = refs.inPath(ref);
        User user = email == null
                ? users.get(caller)
                : users.findByEmail(email)
                        .orElseThrow(
                                () -> new InvalidInputException("field 'user': no user has the email '" + email + "'"));
        if (authInfos.find(user.id(), computer.id()).isEmpty()) {
            authInfos.create(user.id(), computer.id(), Map.of());
        }
        AuthInfo info = authInfos.setEnabled(user.id(), computer.id(), enabled);
        return new Access(computer.label(), user.email(), info.enabled());
    }

    /** The checks of {@code verdi computer test} on the computer {@code ref} names; a computer that is down fails them. */
    public TestReportView test(String ref) {
        return TestReportView.of(engine.testComputer(refs.inPath(ref)));
    }

    private ComputerView view(Computer c, long viewer) {
        List<AuthInfo> infos = authInfos.forComputer(c.id());
        boolean enabled = infos.stream()
                .filter(a -> a.userId() == viewer)
                .findFirst()
                .map(AuthInfo::enabled)
                .orElse(true);
        List<ComputerView.UserState> states = infos.stream()
                .map(a -> new ComputerView.UserState(users.get(a.userId()).email(), a.enabled()))
                .toList();
        return ComputerView.of(c, enabled, states, computers.nodeCount(c.id()));
    }
}
