package dev.cairn.api.pages;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.stereotype.Component;
import org.springframework.web.servlet.FlashMap;
import org.springframework.web.servlet.FlashMapManager;
import org.springframework.web.servlet.support.SessionFlashMapManager;

/**
 * A control's report ("Killed, with its 1 live descendant.") is a flash attribute for the page the
 * browser is redirected to. The page being left follows its process's events and fetches itself on
 * each: the kill's own events came while the browser followed the redirect, and that script's fetch of
 * the same path took the report first, so the page showed the kill done and never said so. A script's
 * request (marked {@code X-Requested-With: XMLHttpRequest}, as the pages' scripts mark theirs) takes no
 * flash attributes. Named so, it replaces Spring's default manager, which keeps them in the session.
 */
@Component("flashMapManager")
class PageFlashes implements FlashMapManager {

    private final SessionFlashMapManager session = new SessionFlashMapManager();

    @Override
    public FlashMap retrieveAndUpdate(HttpServletRequest request, HttpServletResponse response) {
        if ("XMLHttpRequest".equals(request.getHeader("X-Requested-With"))) {
            return null;
        }
        return session.retrieveAndUpdate(request, response);
    }

    @Override
    public void saveOutputFlashMap(FlashMap flashMap, HttpServletRequest request, HttpServletResponse response) {
        session.saveOutputFlashMap(flashMap, request, response);
    }
}
