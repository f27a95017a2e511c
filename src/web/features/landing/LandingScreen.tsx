import { useLingui } from '@lingui/react/macro';
import { productName } from '../../config';
import { useDocumentTitle } from '../../ui/useDocumentTitle';
import { ContactSection } from './ContactSection';
import { DemoSection } from './DemoSection';
import { FeatureGrid } from './FeatureGrid';
import { Hero } from './Hero';
import { useAnalyticsScript } from './useAnalyticsScript';

export function LandingScreen() {
  const { t } = useLingui();
  useDocumentTitle(t`${productName} - Mental Health Solutions for Universities`);
  useAnalyticsScript();
  return (
    <>
      <Hero />
      <FeatureGrid />
      <DemoSection />
      <ContactSection />
    </>
  );
}
