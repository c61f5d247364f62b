package dev.cairn.api.web;

import java.util.Optional;
import java.util.UUID;

/**
 * The uuids a prefix of one's text names, as the range [lowest, highest] they fill: a uuid's text is its
 * bytes in hex, in order, so the uuids whose text begins with {@code 0190c1a2-0f} are those from
 * {@code 0190c1a2-0f00-0000-0000-000000000000} to {@code 0190c1a2-0fff-ffff-ffff-ffffffffffff}, and the
 * node table's uuid index finds them without an index of the text of its own.
 */
record UuidPrefix(UUID lowest, UUID highest) {

    private static final int[] DASH_AT = {8, 13, 18, 23};

    /**
     * The range of a lower-case prefix of hex digits and dashes; empty when the dashes are not where a
     * uuid's are (no uuid begins so).
     */
    static Optional<UuidPrefix> of(String prefix) {
        StringBuilder low = new StringBuilder(36);
        StringBuilder high = new StringBuilder(36);
        for (int i = 0; i < 36; i++) {
            boolean dash = isDashPosition(i);
            if (i < prefix.length()) {
                char c = prefix.charAt(i);
                if ((c == '-') != dash) {
                    return Optional.empty();
                }
                low.append(c);
                high.append(c);
            } else {
                low.append(dash ? '-' : '0');
                high.append(dash ? '-' : 'f');
            }
        }
        return Optional.of(new UuidPrefix(UUID.fromString(low.toString()), UUID.fromString(high.toString())));
    }

    private static boolean isDashPosition(int i) {
        for (int at : DASH_AT) {
            if (at == i) {
                return true;
            }
        }
        return false;
    }
}
