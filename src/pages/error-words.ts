// The HTML error page's words in a language, from its catalog (error.*). They travel in the edge
// facts (routes/pagination.ts EdgeFacts.errorPage), so that 404.html, the preview and the edge
// workers send the page in the build's language without loading a catalog.
import type { Locale } from "../i18n/locale.ts";
import type { ErrorPageWords } from "../routes/pagination.ts";

export function errorPageWords(l: Locale): ErrorPageWords {
  return {
    lang: l.tag,
    titles: {
      400: l.t("error.400.title"),
      404: l.t("error.404.title"),
      405: l.t("error.405.title"),
      500: l.t("error.500.title"),
    },
    texts: {
      400: l.t("error.400.text"),
      404: l.t("error.404.text"),
      405: l.t("error.405.text"),
      500: l.t("error.500.text"),
    },
    home: l.t("error.home"),
  };
}
