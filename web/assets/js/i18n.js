// The page's languages: every string shown comes from one catalogue per language
// (/i18n/LANG.json; English is the reference). Elements carry their key in `data-i18n` (text;
// `data-i18n-md` allows **bold**) or `data-i18n-attr="attr:key;..."`; scripts call t(key, vars).
"use strict";

/// [code, name in that language], in the switch's order.
const LANGUAGES = [["en", "English"], ["mg", "Malagasy"], ["fr", "Français"], ["fi", "Suomi"], ["vi", "Tiếng Việt"], ["ru", "Русский"]];

const I18N = {
  lang: "en",
  cat: {},
  en: {},
  // Keys looked up but missing from the current catalogue (read by the browser test).
  missing: new Set(),
  // Every string t() returned (the browser test checks that what is shown came from here).
  rendered: new Set(),
};

async function fetchCatalogue(lang) {
  const r = await fetch(`/i18n/${lang}.json`);
  if (!r.ok) throw new Error(`catalogue ${lang}: HTTP ${r.status}`);
  return r.json();
}

/// The language to start in: the one chosen before, else the first of the browser's
/// languages the page has, else English.
function preferredLanguage(saved) {
  const have = LANGUAGES.map(([c]) => c);
  if (have.includes(saved)) return saved;
  for (const l of navigator.languages || [navigator.language || "en"]) {
    const base = String(l).toLowerCase().split("-")[0];
    if (have.includes(base)) return base;
  }
  return "en";
}

/// Loads the catalogues of `lang` (and English, the reference) and translates the page.
async function setLanguage(lang) {
  if (!Object.keys(I18N.en).length) I18N.en = await fetchCatalogue("en");
  I18N.cat = lang === "en" ? I18N.en : await fetchCatalogue(lang);
  I18N.lang = lang;
  I18N.missing.clear();
  document.documentElement.lang = lang;
  applyI18n(document);
}

function formatValue(v) {
  if (typeof v === "number") return new Intl.NumberFormat(I18N.lang, { maximumFractionDigits: 1 }).format(v);
  return String(v);
}

/// The string of `key` in the current language, `{name}` placeholders filled from `vars`; a
/// value that is an object holds plural forms, chosen by `vars.n` (Intl.PluralRules).
function t(key, vars) {
  let v = I18N.cat[key];
  if (v === undefined) { I18N.missing.add(key); v = I18N.en[key]; }
  if (v === undefined) return key;
  if (typeof v === "object") {
    const n = vars && typeof vars.n === "number" ? vars.n : 0;
    v = v[new Intl.PluralRules(I18N.lang).select(n)] ?? v.other;
  }
  const out = v.replace(/\{(\w+)\}/g, (m, k) => (vars && vars[k] !== undefined ? formatValue(vars[k]) : m));
  I18N.rendered.add(out);
  return out;
}

/// Sets `e`'s text to `text`, where `**x**` is shown bold.
function setMarkedText(e, text) {
  e.replaceChildren();
  text.split(/\*\*/).forEach((part, i) => {
    if (!part) return;
    e.appendChild(i % 2 ? html("b", {}, part) : document.createTextNode(part));
  });
}

/// Translates the elements under `root` that name a key.
function applyI18n(root) {
  for (const e of root.querySelectorAll("[data-i18n]")) {
    const text = t(e.dataset.i18n);
    if (e.hasAttribute("data-i18n-md")) setMarkedText(e, text);
    else e.textContent = text;
  }
  for (const e of root.querySelectorAll("[data-i18n-attr]")) {
    for (const pair of e.dataset.i18nAttr.split(";")) {
      const [attr, key] = pair.split(":");
      e.setAttribute(attr, t(key));
    }
  }
  if (root === document) document.title = t("app.title");
}

/// The language switch.
function buildLanguageSwitch(onChange) {
  const sel = $("lang");
  sel.replaceChildren();
  for (const [code, name] of LANGUAGES) sel.appendChild(html("option", { value: code, lang: code }, name));
  sel.value = I18N.lang;
  sel.addEventListener("change", () => onChange(sel.value));
}

/// `1.9 s`: a duration in the current language.
function seconds(ms) {
  return t("unit.seconds", { n: Math.round(ms / 100) / 10 });
}
