package dev.cairn.storage.graph;

import java.util.regex.Pattern;

/** Link labels: identifiers of letters, digits and '_' that neither start nor end with '_'. */
final class Labels {

    private static final Pattern LABEL = Pattern.compile("[A-Za-z0-9]([A-Za-z0-9_]*[A-Za-z0-9])?");

    private Labels() {}

    static String check(String label, LinkType type, String source, String target) {
        if (label == null || !LABEL.matcher(label).matches()) {
            throw new LinkRuleException(
                    "link " + type + " " + source + " -> " + target + ": label '" + label
                            + "' is not valid; a label is made of letters, digits and '_' and neither starts nor ends with '_'");
        }
        return label;
    }
}
