import { useEffect } from 'react';
import { BrowserRouter, Route, Routes } from 'react-router-dom';
import { CheckUserEmailPage, RecoverPasswordPage } from './pages/auth/LinkPages';

/** The mailed links' pages (spec §2), loaded only when one is opened; leaving them goes to the login. */
export default function MailedLinks({ onLeave }: { onLeave(): void }) {
  return (
    <BrowserRouter>
      <Routes>
        <Route path="/check_user_email" element={<CheckUserEmailPage />} />
        <Route path="/email_auth_recover_password" element={<RecoverPasswordPage />} />
        <Route path="*" element={<Leave onLeave={onLeave} />} />
      </Routes>
    </BrowserRouter>
  );
}

function Leave({ onLeave }: { onLeave(): void }) {
  useEffect(onLeave, [onLeave]);
  return null;
}
