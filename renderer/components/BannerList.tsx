// Advisory banners by severity: colour, icon and a severity word (never colour alone).
import { useTranslation } from "react-i18next";
import type { AdvisoryBanner } from "../lib/types.ts";
import { Icon } from "./Icon.tsx";

const ORDER = { critical: 0, warning: 1, info: 2, positive: 3 } as const;

export function BannerList({ banners }: { banners: readonly AdvisoryBanner[] }) {
  const { t } = useTranslation();
  if (banners.length === 0) return null;
  const sorted = [...banners].sort((a, b) => ORDER[a.severity] - ORDER[b.severity]);
  return (
    <section className="banners" aria-label={t("banner.list")}>
      {sorted.map((banner, i) => (
        <div
          key={i}
          className={`banner banner-${banner.severity}`}
          data-severity={banner.severity}
          role={banner.severity === "critical" ? "alert" : "status"}
          data-announce
        >
          <Icon name={banner.severity} />
          <div className="banner-text">
            <p className="banner-severity">{t(`banner.${banner.severity}`)}</p>
            <p className="banner-title">{banner.title}</p>
            {banner.body ? <p className="banner-body">{banner.body}</p> : null}
          </div>
        </div>
      ))}
    </section>
  );
}
