package dev.cairn.api.computers;

import java.util.Optional;
import java.util.UUID;
import java.util.regex.Pattern;

import org.springframework.stereotype.Component;

import dev.cairn.storage.Storage;
import dev.cairn.storage.errors.InvalidInputException;
import dev.cairn.storage.errors.NotFoundException;
import dev.cairn.storage.graph.computers.Computer;
import dev.cairn.storage.graph.computers.ComputerStore;

/**
 * Computers named by a client: by label, or by uuid (as AiiDA names them). One named in a URL and
 * missing is a 404; one named in a request's body is that request's fault, a 400 that lists the
 * computers there are.
 */
@Component
public class ComputerRefs {

    private static final Pattern UUID_FORM =
            Pattern.compile("[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}");

    private final ComputerStore computers;

    ComputerRefs(Storage storage) {
        this.computers = storage.computers();
    }

    /** The computer a URL names; a 404 when there is none. */
    public Computer inPath(String ref) {
        return find(ref)
                .orElseThrow(() -> new NotFoundException("no computer is labelled '" + ref + "'"
                        + (UUID_FORM.matcher(ref).matches() ? " or has that uuid" : "")));
    }

    /** The computer a request's body names; a 400 naming the computers there are when there is none. */
    public Computer inBody(String field, String ref) {
        if (ref == null || ref.isBlank()) {
            throw new InvalidInputException("field '" + field + "' is required: a computer's label or uuid");
        }
        return find(ref)
                .orElseThrow(() -> new InvalidInputException("field '" + field + "': no computer is "
                        + "labelled '" + ref + "'; the computers are "
                        + computers.list().stream().map(Computer::label).toList()));
    }

    public Optional<Computer> find(String ref) {
        if (UUID_FORM.matcher(ref).matches()) {
            Optional<Computer> byUuid = computers.findByUuid(UUID.fromString(ref));
            if (byUuid.isPresent()) {
                return byUuid;
            }
        }
        return computers.findByLabel(ref);
    }
}
