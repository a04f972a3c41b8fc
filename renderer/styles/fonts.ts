// The shipped font faces (see fonts.css for what and why).
import "@fontsource/noto-sans/latin-400.css";
import "@fontsource/noto-sans/latin-700.css";
import "@fontsource/noto-sans/latin-ext-400.css";
import "@fontsource/noto-sans/latin-ext-700.css";
import "@fontsource/noto-sans-arabic/arabic-400.css";
import "@fontsource/noto-sans-arabic/arabic-700.css";
import "@fontsource/noto-sans-sc/400.css";
import "@fontsource/noto-sans-tc/400.css";
import "@fontsource/noto-sans-kr/400.css";
import "./fonts.css";
