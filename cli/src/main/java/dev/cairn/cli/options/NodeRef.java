package dev.cairn.cli.options;

import java.util.Locale;
import java.util.regex.Pattern;

import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

import dev.cairn.cli.client.CairnClient;
import dev.cairn.cli.client.CliException;

/**
 * A node named on the command line as the server names it: its uuid, or a prefix of it of at least
 * four hex digits (dashes where the uuid has them). The server resolves it; a prefix that names more
 * than one node comes back as a conflict listing them. Checked here first, so that a typo is a usage
 * error naming what a reference is, before any request.
 */
public record NodeRef(String text) {

    private static final Pattern REF = Pattern.compile("[0-9a-f-]{4,36}");

    public NodeRef {
        text = text.strip().toLowerCase(Locale.ROOT);
        if (!REF.matcher(text).matches() || text.replace("-", "").length() < 4) {
            throw CliException.usage("'" + text + "' is not a node reference: give its uuid or a prefix of it (at"
                    + " least 4 hex digits, as `cairn process list` shows them)");
        }
    }

    /** The reference as one path segment of a URL. */
    public String segment() {
        return CairnClient.segment(text);
    }

    @Override
    public String toString() {
        return text;
    }

    /** For picocli: {@code @Parameters(converter = NodeRef.Converter.class)} or a field of type NodeRef. */
    public static final class Converter implements ITypeConverter<NodeRef> {
        @Override
        public NodeRef convert(String value) {
            try {
                return new NodeRef(value);
            } catch (CliException e) {
                throw new TypeConversionException(e.getMessage());
            }
        }
    }
}
