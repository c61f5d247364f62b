package dev.cairn.api.web;

import java.beans.PropertyEditorSupport;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;

import org.springframework.beans.propertyeditors.CustomBooleanEditor;
import org.springframework.beans.propertyeditors.CustomNumberEditor;
import org.springframework.web.bind.WebDataBinder;
import org.springframework.web.bind.annotation.ControllerAdvice;
import org.springframework.web.bind.annotation.InitBinder;

/**
 * A parameter of a type other than text given empty ({@code ?until=}, {@code ?exit_status=}) is
 * refused as what it is, a value that is not of its type (400, naming the parameter), where Spring
 * would take it as not given and answer as if the filter were absent. Leaving a parameter out is
 * still how a client says it has none; a parameter with a default takes the default when empty.
 */
@ControllerAdvice
class TypedParameters {

    @InitBinder
    void strict(WebDataBinder binder) {
        binder.registerCustomEditor(Integer.class, new CustomNumberEditor(Integer.class, false));
        binder.registerCustomEditor(Long.class, new CustomNumberEditor(Long.class, false));
        binder.registerCustomEditor(Boolean.class, new CustomBooleanEditor(false));
        binder.registerCustomEditor(OffsetDateTime.class, new IsoTimeEditor());
    }

    /** An ISO 8601 time with an offset ({@code 2026-11-24T00:00:00Z}); nothing else, not empty. */
    private static final class IsoTimeEditor extends PropertyEditorSupport {

        @Override
        public void setAsText(String text) {
            try {
                setValue(OffsetDateTime.parse(text.strip()));
            } catch (DateTimeParseException e) {
                throw new IllegalArgumentException("not an ISO 8601 time with an offset", e);
            }
        }
    }
}
