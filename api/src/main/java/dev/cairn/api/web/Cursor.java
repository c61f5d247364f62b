package dev.cairn.api.web;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Map;

import dev.cairn.storage.errors.InvalidInputException;

/**
 * A keyset cursor: the sort values and id of the last item of a page, made opaque (base64url of
 * JSON), so clients pass it back unread and the server may change its form. A cursor records the
 * order it was made for; one given with another order is refused.
 *
 * @param order the order the page was sorted by (as the client named it)
 * @param after the last item's sort values, its id last
 */
public record Cursor(String order, List<Object> after) {

    public String encode() {
        return Base64.getUrlEncoder()
                .withoutPadding()
                .encodeToString(Json.write(Map.of("o", order, "a", after)).getBytes(StandardCharsets.UTF_8));
    }

    /** The cursor a client sent, which must be one this server made for {@code order}. */
    @SuppressWarnings("unchecked")
    public static Cursor decode(String text, String order) {
        Map<String, Object> json;
        try {
            json = Json.readObject(new String(Base64.getUrlDecoder().decode(text), StandardCharsets.UTF_8));
        } catch (IllegalArgumentException | InvalidInputException e) {
            throw new InvalidInputException(
                    "'" + text + "' is not a cursor this server made (pass back the 'next'" + " of a page unchanged)");
        }
        if (!(json.get("o") instanceof String o) || !(json.get("a") instanceof List<?> a)) {
            throw new InvalidInputException("'" + text + "' is not a cursor this server made");
        }
        if (!o.equals(order)) {
            throw new InvalidInputException("the cursor was made for the order '" + o + "', not '" + order
                    + "': a cursor continues the list it came from");
        }
        return new Cursor(o, (List<Object>) a);
    }
}
